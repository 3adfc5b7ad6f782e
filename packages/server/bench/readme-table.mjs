// Writes the Performance table of the server README from a `pnpm bench` run's figures (bench-results.json):
// the block between the markers `<!-- bench-table:start -->` and `<!-- bench-table:end -->` is replaced with
// the run's machine, load and settings, one row per measure and the load generator's CPU. Nothing else of
// the README changes, so the prose around the table (what each row measures, earlier runs) stays as written.
//
//   pnpm bench && pnpm -C packages/server bench:readme [path/to/bench-results.json]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { COLUMNS, cellsOf, formatClientCpu } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const readme = join(here, "..", "README.md");
const results = resolve(process.argv[2] ?? join(here, "..", "..", "..", "bench-results.json"));
const START = "<!-- bench-table:start -->";
const END = "<!-- bench-table:end -->";

const { meta, rows, raw } = JSON.parse(readFileSync(results, "utf8"));
const text = readFileSync(readme, "utf8");
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) throw new Error(`${readme} has no ${START} ... ${END} block`);
writeFileSync(readme, `${text.slice(0, from + START.length)}\n${block(meta, rows, raw)}\n${text.slice(to)}`);
console.log(`${readme}: Performance table written from ${results}`);

function block(meta, rows, raw) {
  const { knobs } = meta;
  const load = (values) => values.map((v) => v.toFixed(2)).join(" ");
  const heading =
    `\`pnpm bench${meta.quick ? " --quick" : ""}\` of ${meta.date.slice(0, 16).replace("T", " ")} UTC, ` +
    `${meta.cpus} x ${meta.cpuModel} with ${meta.memoryGb} GB, Node ${meta.node}, ${knobs.works} works, ` +
    `${knobs.connections} connections x ${knobs.duration} s x ${knobs.repetitions} repetitions (medians), ` +
    `${meta.postgres ? "with" : "without"} PostgreSQL, every server as shipped (load shedding on; the rate ` +
    `limit raised out of the way), load average ${load(meta.loadAverageBefore)} before and ` +
    `${load(meta.loadAverageAfter)} after, ${meta.seconds} s.`;
  const lines = [
    heading,
    "",
    `| ${COLUMNS.join(" | ")} |`,
    "|---|--:|---|--:|--:|---|---|",
    ...rows.map((r) => `| ${cellsOf(r).join(" | ")} |`),
    "",
    formatClientCpu(raw.loadGeneratorCpu ?? {}).trim(),
  ];
  return lines.join("\n");
}
