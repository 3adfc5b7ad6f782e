// GitHub Actions workflow commands: an annotation per finding on the line of the split spec it comes from
// (errors that fail the gate as `error`, acknowledged or accepted ones and warnings as `warning`, info as
// `notice`), and the verdict as one more annotation.
import { evidenceLines, failing, gateLines, reachText, summarize } from "./common.js";

// Workflow command escaping: data escapes %, CR and LF; property values also : and ,.
const data = (/** @type {string} */ value) =>
  String(value).replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
const property = (/** @type {string} */ value) => data(value).replaceAll(":", "%3A").replaceAll(",", "%2C");

/**
 * @param {import("../index.js").Report} report
 * @param {{ gate?: import("../index.js").GateResult }} [context]
 */
export function github(report, { gate } = {}) {
  const lines = report.findings.map((finding) => {
    const kind = failing(finding, gate) ? "error" : finding.level === "info" ? "notice" : "warning";
    const props = [];
    if (finding.source) props.push(`file=${property(finding.source.file)}`, `line=${finding.source.line}`);
    props.push(`title=${property(`${finding.rule} (${finding.level})`)}`);
    const message = [
      `${finding.where}: ${finding.message}`,
      `reaches ${reachText(finding, 6)}`,
      ...(finding.note ? [finding.note] : []),
      ...evidenceLines(finding),
    ].join("\n");
    return `::${kind} ${props.join(",")}::${data(message)}`;
  });
  const verdict = gate
    ? gateLines(gate)
        .map((line) => line.replaceAll("`", ""))
        .join("\n")
    : summarize(report.counts);
  const kind = gate && !gate.pass ? "error" : "notice";
  lines.push(
    `::${kind} title=${property("contract review")}::${data(`${summarize(report.counts)}\n${verdict}`)}`,
  );
  return `${lines.join("\n")}\n`;
}
