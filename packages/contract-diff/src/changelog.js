// The contract changes between two revisions as release notes, grouped by operation: breaking changes
// first, then the rest; a change to a shared schema is listed under every operation it reaches.
import { LEVELS } from "./engine/index.js";
import { operationName } from "./format/common.js";

/** @type {Record<string, string>} */
const LABEL = { error: "Breaking", warning: "Check", info: "" };

/**
 * @typedef {{ level: import("./index.js").Level, rule: string, where: string, message: string }} Entry
 * @typedef {{ name: string, operationId: string, entries: Entry[] }} Group
 */

/** @param {import("./engine/index.js").Report} report @returns {Group[]} */
function byOperation(report) {
  /** @type {Map<string, Group>} */
  const groups = new Map();
  for (const finding of report.findings) {
    for (const op of finding.operations) {
      const name = operationName(op);
      if (!groups.has(name)) groups.set(name, { name, operationId: op.operationId, entries: [] });
      groups.get(name)?.entries.push({
        level: finding.level,
        rule: finding.rule,
        where: op.where,
        message: finding.message,
      });
    }
  }
  const worst = (/** @type {Group} */ group) =>
    Math.min(...group.entries.map((e) => LEVELS.indexOf(e.level)));
  const all = [...groups.values()];
  for (const group of all)
    group.entries.sort(
      (a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.where.localeCompare(b.where),
    );
  return all.sort((a, b) => worst(a) - worst(b) || a.name.localeCompare(b.name));
}

/**
 * @param {import("./engine/index.js").Report} report
 * @param {{ format?: "markdown" | "json" | "text", title?: string }} [options]
 */
export function changelog(report, { format = "markdown", title } = {}) {
  const groups = byOperation(report);
  if (format === "json")
    return `${JSON.stringify({ base: report.base, head: report.head, counts: report.counts, operations: groups }, null, 2)}\n`;
  const heading = title ?? `Contract changes ${report.base} → ${report.head}`;
  const breaking = groups.filter((g) => g.entries.some((e) => e.level === "error")).length;
  const lines = [];
  const entry = (/** @type {Entry} */ e) =>
    `${LABEL[e.level] ? `${LABEL[e.level]}: ` : ""}${e.where ? `${e.where}: ` : ""}${e.message} (${e.rule})`;
  if (format === "text") {
    lines.push(
      heading,
      breaking ? `${breaking} operation(s) with breaking changes` : "no breaking change",
      "",
    );
    for (const group of groups)
      lines.push(`${group.name} (${group.operationId})`, ...group.entries.map((e) => `  - ${entry(e)}`));
    return `${lines.join("\n")}\n`;
  }
  lines.push(`### ${heading}`, "");
  if (groups.length === 0) lines.push("No change to the contract.", "");
  else if (breaking)
    lines.push(`**${breaking} operation${breaking === 1 ? "" : "s"} with breaking changes.**`, "");
  for (const group of groups) {
    lines.push(
      `#### \`${group.name}\` (${group.operationId})`,
      "",
      ...group.entries.map((e) => `- ${e.level === "error" ? `**${entry(e)}**` : entry(e)}`),
      "",
    );
  }
  return lines.join("\n");
}
