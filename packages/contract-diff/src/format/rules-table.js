// The rule list as a table: Markdown for the package README (generated between markers, checked for drift),
// text for a terminal, JSON for tools.

/** @param {readonly { id: string, level: string, doc: string }[]} rules @param {"markdown" | "text" | "json"} format */
export function rulesTable(rules, format = "markdown") {
  if (format === "json")
    return `${JSON.stringify(
      rules.map(({ id, level, doc }) => ({ id, level, doc })),
      null,
      2,
    )}\n`;
  if (format === "text") {
    const width = Math.max(...rules.map((rule) => rule.id.length));
    return `${rules.map((rule) => `${rule.id.padEnd(width)}  ${rule.level.padEnd(7)}  ${rule.doc}`).join("\n")}\n`;
  }
  const rows = rules.map((rule) => `| \`${rule.id}\` | ${rule.level} | ${rule.doc.replaceAll("|", "\\|")} |`);
  return `| Rule | Level | What it reports |\n| --- | --- | --- |\n${rows.join("\n")}\n`;
}
