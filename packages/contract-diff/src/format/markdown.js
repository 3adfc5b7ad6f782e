// The sticky pull request comment: a summary line, the gate's verdict, a table of errors and warnings, and
// the info-level changes folded away. GitHub refuses comments over 65,536 characters: rows that do not fit
// are counted instead of shown.
import { evidenceLines, failing, gateLines, ordered, reachText, summarize } from "./common.js";

export const MARKDOWN_LIMIT = 65_000;
const RESERVE = 600;

const cell = (/** @type {string} */ value) => String(value).replaceAll("|", "\\|").replaceAll("\n", " ");

function link(
  /** @type {import("../index.js").Finding} */ finding,
  /** @type {string | undefined} */ sourceUrl,
) {
  if (!finding.source) return `\`${cell(finding.location)}\``;
  const text = `${finding.source.file}:${finding.source.line}`;
  return sourceUrl ? `[${text}](${sourceUrl}${finding.source.file}#L${finding.source.line})` : `\`${text}\``;
}

/**
 * @param {import("../engine/index.js").Report} report
 * @param {{ gate?: import("../gate.js").GateResult, sourceUrl?: string }} context
 */
export function markdown(report, { gate, sourceUrl } = {}) {
  const head = [
    "## Contract review",
    "",
    `\`${report.base}\` → \`${report.head}\`: **${summarize(report.counts)}**`,
    "",
  ];
  if (gate) {
    const [verdict, ...notes] = gateLines(gate);
    head.push(`**${verdict}**`, "", ...notes.map((note) => `- ${note}`), "");
  }
  const findings = ordered(report.findings);
  const shown = findings.filter((f) => f.level !== "info");
  const info = findings.filter((f) => f.level === "info");
  const row = (/** @type {import("../index.js").Finding} */ f) =>
    `| ${failing(f, gate) ? "❌ error" : f.level === "error" ? "error" : f.level === "warning" ? "⚠️ warning" : "info"} | \`${f.rule}\` | ${link(f, sourceUrl)} ${cell(f.where)} | ${cell(f.message)}${f.note ? ` (${cell(f.note)})` : ""}${evidenceLines(
      f,
    )
      .map((line) => `<br>${cell(line)}`)
      .join("")} | ${cell(reachText(f))} |`;
  const table = ["| Level | Rule | Where | Change | Reaches |", "| --- | --- | --- | --- | --- |"];
  let size = head.join("\n").length + table.join("\n").length + RESERVE;
  const body = [];
  let left = 0;
  for (const finding of shown) {
    const line = row(finding);
    if (size + line.length + 1 > MARKDOWN_LIMIT) {
      left++;
      continue;
    }
    body.push(line);
    size += line.length + 1;
  }
  const out = [...head];
  if (body.length > 0) out.push(...table, ...body, "");
  const infoRows = [];
  for (const finding of info) {
    const line = `- \`${finding.rule}\` ${link(finding, sourceUrl)} ${cell(finding.where)}: ${cell(finding.message)} (${cell(reachText(finding, 2))})`;
    if (size + line.length + 1 > MARKDOWN_LIMIT) {
      left++;
      continue;
    }
    infoRows.push(line);
    size += line.length + 1;
  }
  if (infoRows.length > 0)
    out.push(
      `<details><summary>${infoRows.length} info-level change${infoRows.length === 1 ? "" : "s"} (safe for every client)</summary>`,
      "",
      ...infoRows,
      "",
      "</details>",
      "",
    );
  if (left > 0)
    out.push(
      `_${left} more finding${left === 1 ? "" : "s"} did not fit in this comment: run \`workapi-contract-diff --format text\` for all of them._`,
      "",
    );
  if (findings.length === 0) out.push("No change to any operation.", "");
  return out.join("\n");
}
