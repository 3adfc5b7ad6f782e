// Every output of a contract review, by name.
import { ruleNamed } from "../rules/load.js";
import { github } from "./github.js";
import { githubReview } from "./github-review.js";
import { json } from "./json.js";
import { junit } from "./junit.js";
import { markdown } from "./markdown.js";
import { sarif } from "./sarif.js";
import { text } from "./text.js";

export { summarize } from "./common.js";
export { GITHUB_LIMIT } from "./github-review.js";
export { MARKDOWN_LIMIT } from "./markdown.js";
export { rulesTable } from "./rules-table.js";

const RENDERERS = { text, markdown, json, junit, github, sarif, "github-review": githubReview };
export const FORMATS = Object.freeze(Object.keys(RENDERERS));

/**
 * @param {import("../engine/index.js").Report} report
 * @param {"text" | "markdown" | "json" | "junit" | "github" | "sarif" | "github-review"} format
 * @param {{ gate?: import("../gate.js").GateResult, sourceUrl?: string, rules?: readonly import("../engine/json.js").Json[],
 *   review?: { commitId?: string, hunks?: import("./github-review.js").Hunks } }} [context]
 */
export function formatReport(report, format, context = {}) {
  const render = RENDERERS[format];
  if (!render) throw new Error(`unknown format ${format}: one of ${FORMATS.join(", ")}`);
  // The rules the findings name (SARIF describes them), loaded for those findings only.
  const rules = [...new Set(report.findings.map((finding) => finding.rule))].map(ruleNamed);
  return render(report, { rules, ...context });
}
