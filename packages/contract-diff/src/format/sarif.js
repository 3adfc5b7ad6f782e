// SARIF 2.1.0 for code-scanning views: one result per finding, located at the file and line of the split
// spec, with the operations it reaches as logical locations; the rules it names described in the driver.
import { readFileSync } from "node:fs";
import { evidenceLines, failing, operationName } from "./common.js";

const SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
/** @type {Record<string, string>} */
const LEVEL = { error: "error", warning: "warning", info: "note" };

/**
 * @param {import("../engine/index.js").Report} report
 * @param {{ gate?: import("../gate.js").GateResult, rules: readonly { id: string, level: string, doc: string }[] }} context
 */
export function sarif(report, { gate, rules }) {
  const used = [...new Set(report.findings.map((f) => f.rule))];
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  const driverRules = used.map((id) => ({
    id,
    shortDescription: { text: byId.get(id)?.doc ?? id },
    defaultConfiguration: { level: LEVEL[byId.get(id)?.level ?? "info"] },
    helpUri: `${pkg.homepage?.replace(/#.*$/, "") ?? ""}#rules`,
  }));
  const results = report.findings.map((finding) => ({
    ruleId: finding.rule,
    ruleIndex: used.indexOf(finding.rule),
    level: finding.level === "error" && !failing(finding, gate) && gate ? "warning" : LEVEL[finding.level],
    message: {
      text: [
        `${finding.where}: ${finding.message}${finding.note ? ` (${finding.note})` : ""}`,
        ...evidenceLines(finding),
      ].join("\n"),
    },
    ...(finding.source
      ? {
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: finding.source.file },
                region: { startLine: finding.source.line },
              },
              logicalLocations: finding.operations.map((op) => ({
                name: op.operationId,
                fullyQualifiedName: `${operationName(op)} ${op.where}`.trim(),
                kind: "function",
              })),
            },
          ],
        }
      : {
          locations: [
            {
              logicalLocations: finding.operations.map((op) => ({
                name: op.operationId,
                fullyQualifiedName: `${operationName(op)} ${op.where}`.trim(),
                kind: "function",
              })),
            },
          ],
        }),
    partialFingerprints: { contractLocation: `${finding.rule}|${finding.location}` },
  }));
  const out = {
    $schema: SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "workapi-contract-diff",
            version: pkg.version,
            informationUri: pkg.homepage,
            rules: driverRules,
          },
        },
        results,
        ...(gate
          ? {
              properties: {
                gate: { pass: gate.pass, acknowledgedBy: gate.acknowledgedBy, notes: gate.notes },
              },
            }
          : {}),
      },
    ],
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
