// The report for machines: the report as the engine returns it, with the gate's verdict when there is one.
/**
 * @param {import("../index.js").Report} report
 * @param {{ gate?: import("../index.js").GateResult }} [context]
 */
export function json(report, { gate } = {}) {
  const out = {
    base: report.base,
    head: report.head,
    counts: report.counts,
    ...(gate
      ? {
          gate: {
            pass: gate.pass,
            errors: gate.errors,
            unacknowledged: gate.unacknowledged,
            acknowledgedBy: gate.acknowledgedBy,
            accepted: gate.accepted.map(({ finding, entry }) => ({
              rule: finding.rule,
              location: finding.location,
              reason: entry.reason,
            })),
            staleAccepts: gate.staleAccepts,
            pendingMajors: gate.pendingMajors,
            group: gate.group,
            notes: gate.notes,
          },
        }
      : {}),
    findings: report.findings,
    schemas: report.schemas,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
