export { changelog } from "./changelog.js";
export { requiredBump } from "./changeset.js";
export { main, USAGE } from "./cli.js";
export { diffSpecs, fromDocument, LEVELS } from "./engine/index.js";
export {
  FORMATS,
  formatReport,
  GITHUB_LIMIT,
  MARKDOWN_LIMIT,
  rulesTable,
  summarize,
} from "./format/index.js";
export { addedChangesets, DEFAULT_ACCEPT_FILE, evaluateGate, readAcceptFile } from "./gate.js";
export { postReview } from "./github/post-review.js";
export { tagsMatching } from "./load/git.js";
export { InputError, loadContract } from "./load/index.js";
export { RULES } from "./rules/index.js";
