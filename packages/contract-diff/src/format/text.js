// The report for a terminal: one block per finding, errors first.
import { evidenceLines, gateLines, ordered, placeOf, reachText, summarize } from "./common.js";

/**
 * @param {import("../index.js").Report} report
 * @param {{ gate?: import("../index.js").GateResult }} [context]
 */
export function text(report, { gate } = {}) {
  const out = [`Contract changes ${report.base} -> ${report.head}: ${summarize(report.counts)}`];
  if (gate) out.push(...gateLines(gate).map((line) => line.replaceAll("`", "")));
  for (const finding of ordered(report.findings)) {
    out.push("");
    out.push(`${finding.level.padEnd(7)} ${finding.rule}  ${placeOf(finding)}  ${finding.where}`);
    out.push(`        ${finding.message}${finding.note ? ` (${finding.note})` : ""}`);
    out.push(`        reaches ${reachText(finding)}`);
    for (const line of evidenceLines(finding)) out.push(`        shown: ${line}`);
  }
  return `${out.join("\n")}\n`;
}
