// What every output says the same way: the order of findings, counts, where a finding is and what it reaches,
// and the gate's verdict as sentences.
import { LEVELS } from "../engine/index.js";

/** @typedef {import("../engine/index.js").Finding} Finding @typedef {import("../gate.js").GateResult} GateResult */

export const plural = (/** @type {number} */ n, /** @type {string} */ word) =>
  `${n} ${word}${n === 1 || word === "info" ? "" : "s"}`;

/** `2 errors, 1 warning, 3 info`, or `no changes`. */
export function summarize(/** @type {Record<import("../index.js").Level, number>} */ counts) {
  const total = LEVELS.reduce((sum, level) => sum + (counts[level] ?? 0), 0);
  if (total === 0) return "no changes";
  return LEVELS.map((level) => plural(counts[level] ?? 0, level)).join(", ");
}

/** Errors first, then warnings, then info; within a level by place. */
export const ordered = (/** @type {import("../index.js").Finding[]} */ findings) =>
  [...findings].sort(
    (a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || placeOf(a).localeCompare(placeOf(b)),
  );

/** `spec/components/schemas/Tag.yaml:14`, or the operation and place when no file is known. */
export const placeOf = (/** @type {import("../index.js").Finding} */ finding) =>
  finding.source ? `${finding.source.file}:${finding.source.line}` : finding.location;

export const operationName = (/** @type {import("../engine/json.js").Json} */ op) =>
  op.method ? `${op.method.toUpperCase()} ${op.path}` : op.operationId;

/** `POST /tags.create`, or `3 operations: POST /a, GET /b, ...` */
export function reachText(/** @type {import("../index.js").Finding} */ finding, most = 4) {
  const names = [...new Set(finding.operations.map(operationName))];
  if (names.length === 1) return names[0];
  const shown = names.slice(0, most).join(", ");
  return `${names.length} operations: ${shown}${names.length > most ? `, and ${names.length - most} more` : ""}`;
}

/** The gate's verdict and notes, one sentence each (code in backticks). */
export function gateLines(/** @type {import("../index.js").GateResult} */ gate) {
  const lines = [];
  const errors = plural(gate.errors, "error-level change");
  const files = (/** @type {string[]} */ list) => list.map((f) => `\`${f}\``).join(", ");
  if (gate.errors === 0) lines.push("Gate: passed, no error-level change.");
  else if (gate.unacknowledged === 0)
    lines.push(`Gate: passed, ${errors}, all listed in the accepted-breaks file.`);
  else if (gate.pass)
    lines.push(
      `Gate: passed, ${errors} acknowledged by ${files(gate.acknowledgedBy)} (major), added by this change.`,
    );
  else {
    lines.push(
      `Gate: FAILED, ${plural(gate.unacknowledged, "error-level change")} and no changeset added by this change declares a \`major\` bump of ${gate.group.label}. ` +
        "If the break is intended, run `workapi-contract-diff changeset` (it writes the changeset with the bump the findings require; reword its summary, not its level) and say what callers must change; " +
        "if it fixes a contract that never matched the service, list it in the accepted-breaks file with a reason.",
    );
  }
  if (gate.accepted.length > 0 && gate.unacknowledged > 0)
    lines.push(`${plural(gate.accepted.length, "error")} accepted by the accepted-breaks file.`);
  if (gate.warnings > 0)
    lines.push(`${plural(gate.warnings, "warning")} listed; warnings never fail the gate.`);
  lines.push(...gate.notes);
  return lines;
}

/** Whether an error-level finding fails the gate (no gate: every error does). */
export function failing(
  /** @type {import("../index.js").Finding} */ finding,
  /** @type {import("../index.js").GateResult | undefined} */ gate,
) {
  if (finding.level !== "error") return false;
  if (!gate) return true;
  if (gate.accepted.some((a) => a.finding === finding)) return false;
  return !gate.pass;
}

/**
 * What a finding's evidence says, one line per example the other side's schema refuses: which example,
 * which side refuses it, and the validator's first complaint (engine/evidence.js finds them).
 * @param {Finding} finding
 */
export function evidenceLines(finding) {
  return (finding.evidence ?? []).map((e) => {
    const where = e.in === "request" ? "request body" : `response ${e.status}`;
    const side = e.refusedBy === "head" ? "the new contract" : "the old contract";
    return `Example \`${e.example}\` (${where} of ${e.operationId}, ${e.media}) is refused by ${side}: ${e.error}`;
  });
}
