export { main, USAGE } from "./cli.js";
export { diffContracts } from "./diff.js";
export { evaluateGate } from "./gate.js";
export { formatReport, groupByOperation, MARKDOWN_LIMIT, summarize } from "./report.js";
export { LEVELS, levelOf, RULES } from "./rules.js";
