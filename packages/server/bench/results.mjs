// The latest `pnpm bench` run as a page of its own, bench/RESULTS.md: the run's machine, load and settings,
// one row per measure (figure, peer, ratio, goal) and the load generator's CPU. `pnpm bench` writes it at the
// end of every run that finished (bench/run.mjs), so the page always shows one whole run, never a table kept
// by hand; `pnpm -C packages/server bench:results [bench-results.json]` writes it again from a run's figures.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { COLUMNS, cellsOf, formatClientCpu } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
/** Where the latest run's table is written. */
export const RESULTS_FILE = join(here, "RESULTS.md");

/** Writes RESULTS_FILE from a run's `{ meta, rows, raw }` (what bench-results.json holds). */
export function writeResults({ meta, rows, raw }, file = RESULTS_FILE) {
  const page = [
    "# Benchmark results",
    "",
    "The latest `pnpm bench` run, written by the bench itself (see [README.md](README.md) for what each row",
    "measures and how the peers run). Compare ratios, not figures, across machines and runs: the peers share",
    "the machine's cores with the server, and a busy machine moves every figure.",
    "",
    tableOf(meta, rows, raw),
    "",
  ];
  writeFileSync(file, page.join("\n"));
  return file;
}

function tableOf(meta, rows, raw) {
  const { knobs } = meta;
  const load = (values) => values.map((v) => v.toFixed(2)).join(" ");
  const heading =
    `\`pnpm bench${meta.quick ? " --quick" : ""}\` of ${meta.date.slice(0, 16).replace("T", " ")} UTC, ` +
    `${meta.cpus} x ${meta.cpuModel} with ${meta.memoryGb} GB, Node ${meta.node}, ${knobs.works} works, ` +
    `${knobs.connections} connections x ${knobs.duration} s x ${knobs.repetitions} repetitions (medians), ` +
    `${meta.postgres ? "with" : "without"} PostgreSQL, every server as shipped (load shedding on; the rate ` +
    `limit raised out of the way), load average ${load(meta.loadAverageBefore)} before and ` +
    `${load(meta.loadAverageAfter)} after, ${meta.seconds} s.`;
  return [
    heading,
    "",
    `| ${COLUMNS.join(" | ")} |`,
    "|---|--:|---|--:|--:|---|---|",
    ...rows.map((r) => `| ${cellsOf(r).join(" | ")} |`),
    "",
    formatClientCpu(raw.loadGeneratorCpu ?? {}).trim(),
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = resolve(process.argv[2] ?? join(here, "..", "..", "..", "bench-results.json"));
  const file = writeResults(JSON.parse(readFileSync(results, "utf8")));
  console.log(`${file}: written from ${results}`);
}
