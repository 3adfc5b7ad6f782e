// JUnit XML for CI test views: one test case per finding, named by its rule and place. A finding that fails
// the gate is a failure; warnings are written to the case's output; info-level findings pass.
import { evidenceLines, failing, gateLines, placeOf, reachText } from "./common.js";

/** XML 1.0 cannot hold most control characters, even escaped: they are dropped. */
const allowed = (/** @type {number} */ code) => code === 9 || code === 10 || code === 13 || code >= 32;
const xml = (/** @type {string} */ value) =>
  [...String(value)]
    .filter((c) => allowed(c.codePointAt(0) ?? 0))
    .join("")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

/**
 * @param {import("../index.js").Report} report
 * @param {{ gate?: import("../index.js").GateResult }} [context]
 */
export function junit(report, { gate } = {}) {
  const cases = report.findings.map((finding) => {
    const name = `${finding.rule} ${placeOf(finding)} ${finding.where}`.trim();
    const detail = [
      finding.message,
      `reaches ${reachText(finding, 20)}`,
      ...(finding.note ? [finding.note] : []),
      ...evidenceLines(finding),
    ].join("\n");
    const open = `    <testcase classname="${xml(finding.rule)}" name="${xml(name)}">`;
    if (failing(finding, gate)) {
      return `${open}\n      <failure type="${xml(finding.rule)}" message="${xml(finding.message)}">${xml(detail)}</failure>\n    </testcase>`;
    }
    if (finding.level === "warning" || finding.level === "error") {
      return `${open}\n      <system-out>${xml(`${finding.level}: ${detail}`)}</system-out>\n    </testcase>`;
    }
    return `${open}</testcase>`;
  });
  const failures = report.findings.filter((f) => failing(f, gate)).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="contract review" tests="${report.findings.length}" failures="${failures}">`,
    `  <testsuite name="${xml(`${report.base} -> ${report.head}`)}" tests="${report.findings.length}" failures="${failures}" errors="0" skipped="0">`,
    ...(gate
      ? [
          `    <properties>\n${gateLines(gate)
            .map((line) => `      <property name="gate" value="${xml(line)}"/>`)
            .join("\n")}\n    </properties>`,
        ]
      : []),
    ...cases,
    "  </testsuite>",
    "</testsuites>",
  ];
  return `${out.join("\n")}\n`;
}
