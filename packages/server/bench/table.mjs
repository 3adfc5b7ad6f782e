// The benchmark's table: figures, peer figures, ratios and goals, one row per measure.
import { cpus, loadavg, totalmem } from "node:os";

/** The run's rows as a table under a line naming the machine, the load and the run's settings. */
/** A figure as the table prints it: req/s whole with separators, MB whole, the rest with two decimals. */
export function figureOf(value, unit) {
  if (value === undefined || value === null) return "";
  if (unit === "req/s") return Math.round(value).toLocaleString("en-US");
  return value.toFixed(unit === "MB" ? 0 : 2);
}

/** A row's goal as the table prints it. */
export function goalOf(r) {
  if (r.goal === undefined || r.goal === null) return "";
  if (r.measure.startsWith("cold start")) return `<= ${r.goal} ms`;
  if (r.measure.startsWith("idle RSS")) return `<= ${r.goal} MB`;
  if (r.measure.includes("development")) return `prod/dev <= ${r.goal}x`;
  return `${r.goalKind} ${r.goal}x`;
}

/** The table's columns, and one row's cells as printed (also in bench/RESULTS.md: ./results.mjs). */
export const COLUMNS = ["measure", "workapi", "peer", "peer figure", "ratio", "goal", ""];
export function cellsOf(r) {
  return [
    r.measure,
    figureOf(r.ours, r.unit),
    r.peerName,
    figureOf(r.peer, r.unit),
    r.ratio === undefined || r.ratio === null ? "" : `${r.ratio.toFixed(2)}x`,
    goalOf(r),
    r.pass === undefined || r.pass === null ? "" : r.pass ? "pass" : "FAIL",
  ];
}

export function formatTable(rows, run) {
  const table = [COLUMNS, ...rows.map(cellsOf)];
  const widths = table[0].map((_, i) => Math.max(...table.map((line) => line[i].length)));
  const numeric = new Set([1, 3, 4]);
  const format = (line) =>
    line
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [
    `\nworkapi benchmark${run.quick ? " (--quick)" : ""}: ${run.cpus} x ${run.cpuModel}, Node ${run.node}, ` +
      `${run.connections} connections x ${run.duration} s x ${run.repetitions} repetitions (medians), ` +
      `load average ${run.loadAverageBefore.join(" ")} before, ${run.loadAverageAfter.join(" ")} after, ${run.seconds} s`,
    format(table[0]),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...table.slice(1).map(format),
  ].join("\n");
}

/** The load generator's CPU per measured load (medians, share of one core). */
export function formatClientCpu(shares) {
  const entries = Object.entries(shares).map(([key, share]) => `${key} ${(share * 100).toFixed(0)}%`);
  return `\nload generator CPU (autocannon in its own process, share of one core, medians): ${entries.join(", ")}`;
}

/** What the run was: when, on what machine, with which settings (the table's heading). */
export function runMeta({ quick, knobs }) {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    loadAverageBefore: loadavg().map((n) => Number(n.toFixed(2))),
    quick,
    knobs,
    postgres: Boolean(process.env.DATABASE_URL),
  };
}

/** The table's rows, and `row`, which adds one. */
export function tableRows() {
  const rows = [];
  /** `higher`: a throughput (ours / peer, goal a minimum); else a cost (goal a maximum). */
  const row = (measure, ours, unit, peerName, peer, goal, { higher = false, ratio } = {}) => {
    const r = ratio ?? (peer === undefined ? undefined : ours / peer);
    const subject = r ?? ours;
    const pass = goal === undefined ? undefined : higher ? subject >= goal : subject <= goal;
    rows.push({ measure, ours, unit, peerName, peer, ratio: r, goal, goalKind: higher ? ">=" : "<=", pass });
  };
  return { rows, row };
}
