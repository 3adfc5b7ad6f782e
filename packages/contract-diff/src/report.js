// Renders a contract diff (and, when gated, the gate's verdict) as text for terminals, Markdown for pull
// request comments, or JSON for machines. Findings are grouped by operation, operations with errors first.
import { HTTP_METHODS } from "@workapi/spec";
import { LEVELS } from "./rules.js";

/**
 * @typedef {import("./diff.js").ContractDiff} ContractDiff
 * @typedef {import("./diff.js").Finding} Finding
 * @typedef {import("./gate.js").GateResult} GateResult
 * @typedef {{ base?: string, head?: string, gate?: GateResult }} ReportContext
 */

const rank = (level) => LEVELS.indexOf(level);
const plural = (n, word) => `${n} ${word}${n === 1 || word === "info" ? "" : "s"}`;

/** `2 errors, 1 warning, 3 info`, or `no changes`. */
export function summarize(counts) {
  const total = LEVELS.reduce((sum, level) => sum + counts[level], 0);
  if (total === 0) return "no changes to any operation";
  return LEVELS.map((level) => plural(counts[level], level)).join(", ");
}

/** Findings grouped by operation: operations with the most severe finding first, then by path and method. */
export function groupByOperation(findings) {
  const groups = new Map();
  for (const finding of findings) {
    const key = `${finding.operation.method} ${finding.operation.path}`;
    if (!groups.has(key)) groups.set(key, { operation: finding.operation, findings: [] });
    groups.get(key).findings.push(finding);
  }
  const all = [...groups.values()];
  for (const group of all) {
    group.findings.sort((a, b) => rank(a.level) - rank(b.level));
    group.worst = group.findings[0].level;
  }
  return all.sort(
    (a, b) =>
      rank(a.worst) - rank(b.worst) ||
      a.operation.path.localeCompare(b.operation.path) ||
      HTTP_METHODS.indexOf(a.operation.method) - HTTP_METHODS.indexOf(b.operation.method),
  );
}

/** The gate's verdict and notes as plain sentences (code spans marked with backticks). */
export function gateLines(gate) {
  const lines = [];
  const files = gate.acknowledgedBy.map((file) => `\`${file}\``).join(", ");
  const errors = plural(gate.errors, "error-level change");
  if (gate.errors === 0) lines.push("Gate: passed, no error-level change.");
  else if (gate.pass) lines.push(`Gate: passed, ${errors} acknowledged by ${files} (major).`);
  else {
    lines.push(
      `Gate: FAILED, ${errors} and no pending changeset declares a \`major\` bump of ${gate.group.label}. ` +
        "If the break is intended, add one (`pnpm changeset`, choose major) and say what callers must change.",
    );
  }
  if (gate.warnings > 0)
    lines.push(`${plural(gate.warnings, "warning")} listed below; warnings never fail the gate.`);
  lines.push(...gate.notes);
  return lines;
}

const escapeCell = (text) => text.replaceAll("|", "\\|");
const opTitle = (op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;

/** GitHub refuses comments over 65536 characters; the Markdown report stays under this with room to spare. */
export const MARKDOWN_LIMIT = 60_000;

function markdown(diff, context) {
  const sides =
    context.base || context.head ? ` (${context.base ?? "base"} → ${context.head ?? "head"})` : "";
  const head = [`## Contract review: ${summarize(diff.counts)}${sides}`, ""];
  if (context.gate) {
    const [verdict, ...rest] = gateLines(context.gate);
    head.push(`**${verdict}**`, "", ...rest.flatMap((line) => [line, ""]));
  }
  const section = (group) => {
    const counts = Object.fromEntries(
      LEVELS.map((l) => [l, group.findings.filter((f) => f.level === l).length]),
    );
    const parts = LEVELS.filter((l) => counts[l] > 0).map((l) => plural(counts[l], l));
    const op = group.operation;
    const out = [
      `### \`${op.operationId}\` \`${op.method.toUpperCase()} ${op.path}\`: ${parts.join(", ")}`,
      "",
    ];
    out.push("| Level | Rule | Where | Change |", "| --- | --- | --- | --- |");
    for (const f of group.findings) {
      const level = f.level === "info" ? "info" : `**${f.level}**`;
      const where = f.where ? `\`${escapeCell(f.where)}\`` : "";
      out.push(`| ${level} | \`${f.rule}\` | ${where} | ${escapeCell(f.message)} |`);
    }
    out.push("");
    return out.join("\n");
  };
  const names = (xs) => (xs.length > 0 ? xs.map((x) => `\`${x}\``).join(", ") : "none");
  const tail = [
    "",
    `Schemas added: ${names(diff.schemas.added)}`,
    "",
    `Schemas removed: ${names(diff.schemas.removed)}`,
  ];
  const groups = groupByOperation(diff.findings);
  const reviewed = groups.filter((g) => g.worst !== "info");
  const quiet = groups.filter((g) => g.worst === "info");
  // Operations are added most severe first until the limit; what does not fit is counted, not cut mid-table.
  let budget = MARKDOWN_LIMIT - head.join("\n").length - tail.join("\n").length - 400;
  const body = [];
  let left = 0;
  const take = (group) => {
    const text = section(group);
    if (left > 0 || text.length > budget) left++;
    else {
      budget -= text.length + 1;
      body.push(text);
    }
  };
  for (const group of reviewed) take(group);
  if (quiet.length > 0 && left === 0) {
    // Safe changes fold away so errors and warnings stay on the first screen of the comment.
    body.push(
      `<details>\n<summary>${plural(quiet.length, "operation")} with info-level changes only</summary>\n`,
    );
    for (const group of quiet) take(group);
    body.push("</details>\n");
  } else left += quiet.length;
  if (left > 0) {
    body.push(
      `${plural(left, "more operation")} not shown: the comment would be too long. ` +
        "`pnpm contract:diff` (or the job's log) has the full report.\n",
    );
  }
  return `${[...head, ...body, ...tail].join("\n")}\n`;
}

function text(diff, context) {
  const sides =
    context.base || context.head ? ` (${context.base ?? "base"} -> ${context.head ?? "head"})` : "";
  const out = [`Contract review: ${summarize(diff.counts)}${sides}`, ""];
  if (context.gate) out.push(...gateLines(context.gate).map((line) => line.replaceAll("`", "")), "");
  for (const group of groupByOperation(diff.findings)) {
    out.push(opTitle(group.operation));
    const width = Math.max(...group.findings.map((f) => f.rule.length));
    for (const f of group.findings) {
      const where = f.where ? `${f.where}: ` : "";
      out.push(`  ${f.level.padEnd(7)}  ${f.rule.padEnd(width)}  ${where}${f.message}`);
    }
    out.push("");
  }
  const names = (xs) => (xs.length > 0 ? xs.join(", ") : "none");
  out.push(`Schemas added: ${names(diff.schemas.added)}`, `Schemas removed: ${names(diff.schemas.removed)}`);
  return `${out.join("\n")}\n`;
}

/**
 * Renders a diff as `markdown`, `text` or `json`; `context` names the two sides and carries the gate's verdict.
 * @param {ContractDiff} diff
 * @param {"markdown" | "text" | "json"} format
 * @param {ReportContext} [context]
 * @returns {string}
 */
export function formatReport(diff, format, context = {}) {
  if (format === "json") return `${JSON.stringify({ ...context, ...diff }, null, 2)}\n`;
  return format === "markdown" ? markdown(diff, context) : text(diff, context);
}
