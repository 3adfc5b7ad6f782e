// Scaling out: one server process against `serve --workers 2` (one port, two workers) and against two separate
// processes sharing one PostgreSQL database and one Redis, and SQLite against PostgreSQL for one process. Creates a PostgreSQL database of its own (dropped afterwards) and starts
// a redis-server of its own on a free port (no persistence; never the machine's shared Redis), seeds the
// database and a SQLite data directory the same way, then starts the built server (production mode): one
// process on SQLite, two on PostgreSQL, every one of them with that Redis for its rate limits and the same
// admin token. Each repetition drives works.get and tags.list with autocannon against each setup in turn, the
// same connections in all: SQLite one process, PostgreSQL one process (the others idle), PostgreSQL two
// processes (the connections split across both ports, two loads at once), PostgreSQL `--workers 2` (every
// connection to its one port). Every load runs in a process of
// its own, and the load generators' CPU (cores busy over the run) is printed beside each figure, since on a
// small machine the client competes with the servers. Prints each repetition, the medians and the ratios,
// each the median of the per-repetition ratios: `--workers 2` over one process and two processes over one
// (PostgreSQL: the scale-out factors), and PostgreSQL over SQLite.
//
//   pnpm --filter @workapi/server bench:scale-out [--connections n] [--duration s] [--repetitions n] [--works n]
//
// (bench:scale-out builds first; `node bench/scale-out.mjs` runs the build there is.)
//
// Needs DATABASE_URL (a PostgreSQL server where it may create a database) and redis-server. Figures only: the
// exit code is 0 whatever they say, unless the run itself failed.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { temporaryDatabase } from "../test/support/databases.mjs";
import { childProcesses } from "./children.mjs";
import { loadInProcess } from "./load-process.mjs";
import { getJson, median } from "./measure.mjs";
import { haveRedisServer, startOwnRedis } from "./scale-out-rows.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = resolve(here, "..");
const cli = join(serverDir, "dist/cli.js");
const run = promisify(execFile);

const { values: flags } = parseArgs({
  options: {
    connections: { type: "string", default: "20" },
    duration: { type: "string", default: "5" },
    repetitions: { type: "string", default: "3" },
    works: { type: "string", default: "1000" },
  },
});
const knobs = {
  connections: Number(flags.connections),
  duration: Number(flags.duration),
  repetitions: Number(flags.repetitions),
  works: Number(flags.works),
};
for (const [name, value] of Object.entries(knobs)) {
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`--${name} must be a positive whole number`);
}
if (knobs.connections < 2) throw new Error("--connections must be at least 2 (split across two processes)");
if (!process.env.DATABASE_URL) {
  console.error(
    "DATABASE_URL is unset: the scale-out bench needs a PostgreSQL server to create a database on",
  );
  process.exit(1);
}
if (!haveRedisServer()) {
  console.error("redis-server is not installed (Debian: apt-get install redis-server)");
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "workapi-scale-out-"));
const {
  children,
  freePort,
  serverEnv,
  start,
  startServer: launch,
  stop,
  ready,
} = childProcesses({
  work,
  serverDir,
});
const log = (line) => process.stderr.write(`[scale-out] ${line}\n`);

/** Loads `dataDir` (and `databaseUrl`, when given) with the demo data; returns the first start's admin token. */
async function seed(dataDir, databaseUrl) {
  const t = performance.now();
  await run(process.execPath, [cli, "seed", "--data-dir", dataDir, "--works", String(knobs.works)], {
    env: serverEnv("production", databaseUrl),
  });
  log(`seeded ${knobs.works} works (${databaseUrl ? "PostgreSQL" : "SQLite"}) in ${ms(t)} ms`);
  return readFileSync(join(dataDir, "admin-token"), "utf8").trim();
}

/** Starts `serve` on a free port and waits until it answers an authenticated read. */
async function startServer(name, { dataDir, databaseUrl, env, token, workers = 1 }) {
  // Far above what a run sends: the bench measures serving, not the limiter's 429s.
  const args = ["--data-dir", dataDir, "--workers", String(workers), "--rate-limit", "1000000000"];
  const proc = await launch({ ...serverEnv("production", databaseUrl), ...env }, { name, args });
  await ready(proc, `${proc.url}/tags.list`, { authorization: `Bearer ${token}` });
  return proc;
}

/** The two reads measured on `server`, with a work id of its database. */
async function targetsOf(server, token) {
  const headers = { authorization: `Bearer ${token}` };
  const [work] = (await getJson(`${server.url}/works.list?limit=1&type=issue`, headers)).works;
  return {
    "works.get": { url: `${server.url}/works.get?id=${encodeURIComponent(work.id)}`, headers },
    "tags.list": { url: `${server.url}/tags.list`, headers },
  };
}

/**
 * Drives every target at once, the connections split between them, each load in a process of its own; the
 * requests per second add up. `clientCores`: the CPU the load generators used over the run, in cores.
 */
async function loadAll(targets, label, duration = knobs.duration) {
  const share = Math.floor(knobs.connections / targets.length);
  const results = await Promise.all(
    targets.map((target, i) =>
      loadInProcess({ ...target, label: `${label} #${i + 1}` }, { connections: share, duration }),
    ),
  );
  return {
    rps: results.reduce((sum, result) => sum + result.rps, 0),
    each: results.map((result) => result.rps),
    clientCores: results.reduce((sum, result) => sum + result.cpuMs, 0) / (duration * 1000),
  };
}

function ms(since) {
  return Math.round(performance.now() - since);
}

const OPERATIONS = ["works.get", "tags.list"];

/** Each repetition loads every setup once per operation, in turn; returns every figure by operation and setup. */
async function measure(setups) {
  const figures = Object.fromEntries(
    OPERATIONS.map((op) => [op, Object.fromEntries(Object.keys(setups).map((name) => [name, []]))]),
  );
  for (const op of OPERATIONS) {
    for (const [name, targets] of Object.entries(setups)) await loadAll(targets[op], `warm-up ${name}`, 2);
  }
  for (let repetition = 1; repetition <= knobs.repetitions; repetition++) {
    const parts = [];
    for (const op of OPERATIONS) {
      for (const [name, targets] of Object.entries(setups)) {
        const result = await loadAll(targets[op], `${op} ${name}`);
        figures[op][name].push(result);
        const split = result.each.length > 1 ? ` (${result.each.map(Math.round).join(" + ")})` : "";
        parts.push(`${op} ${name} ${Math.round(result.rps)}${split}`);
      }
    }
    console.log(`repetition ${repetition}: ${parts.join(", ")} req/s`);
  }
  return figures;
}

/** The medians, and each ratio as the median of its per-repetition ratios. */
function report(figures) {
  const names = Object.keys(figures[OPERATIONS[0]]);
  const pad = (text, width) => String(text).padEnd(width);
  const column = 26;
  console.log(
    `\nmedians of ${knobs.repetitions} (${knobs.connections} connections in all, ${knobs.duration} s each; ` +
      "req/s, load generators' CPU in cores):",
  );
  console.log(`  ${pad("", 26)}${OPERATIONS.map((op) => pad(op, column)).join("")}`);
  for (const name of names) {
    const cells = OPERATIONS.map((op) => {
      const runs = figures[op][name];
      const rps = median(runs.map((r) => r.rps));
      return pad(`${Math.round(rps)} (client ${median(runs.map((r) => r.clientCores)).toFixed(2)})`, column);
    });
    console.log(`  ${pad(name, 26)}${cells.join("")}`);
  }
  const ratio = (op, over, under) =>
    median(figures[op][over].map((r, i) => r.rps / figures[op][under][i].rps)).toFixed(2);
  const line = (label, over, under) =>
    console.log(
      `  ${pad(label, 26)}${OPERATIONS.map((op) => pad(`${ratio(op, over, under)}x`, column)).join("")}`,
    );
  console.log("ratios (medians of the per-repetition ratios):");
  line("--workers 2 / 1 (PG)", "PostgreSQL, --workers 2", "PostgreSQL, 1 process");
  line("2 processes / 1 (PG)", "PostgreSQL, 2 processes", "PostgreSQL, 1 process");
  line("PostgreSQL / SQLite (1)", "PostgreSQL, 1 process", "SQLite, 1 process");
}

let database;
let failed = false;
try {
  database = await temporaryDatabase(process.env.DATABASE_URL, "workapi_scale");
  const databaseUrl = database.url;

  const { redis, port: redisPort, url: redisUrl } = await startOwnRedis({ start, freePort });
  const env = { REDIS_URL: redisUrl, WORKAPI_REDIS_PREFIX: "workapi-scale-out:" };

  const sqliteDir = join(work, "sqlite");
  const pgDir = join(work, "postgres");
  const sqliteToken = await seed(sqliteDir);
  const pgToken = await seed(pgDir, databaseUrl);
  const sqlite = await startServer("sqlite", { dataDir: sqliteDir, env, token: sqliteToken });
  // Both PostgreSQL processes serve the one database with the one token (the data directory holds only it).
  const pgServer = { dataDir: pgDir, databaseUrl, env, token: pgToken };
  const [first, second] = await Promise.all([startServer("pg-1", pgServer), startServer("pg-2", pgServer)]);
  const cluster = await startServer("pg-workers", { ...pgServer, workers: 2 });
  log(
    `up: SQLite ${sqlite.url}, PostgreSQL ${first.url} and ${second.url}, PostgreSQL --workers 2 ` +
      `${cluster.url}, Redis on ${redisPort}`,
  );

  const [onSqlite, onFirst, onSecond, onCluster] = await Promise.all([
    targetsOf(sqlite, sqliteToken),
    targetsOf(first, pgToken),
    targetsOf(second, pgToken),
    targetsOf(cluster, pgToken),
  ]);
  const setupOf = (...each) => Object.fromEntries(OPERATIONS.map((op) => [op, each.map((t) => t[op])]));
  const figures = await measure({
    "SQLite, 1 process": setupOf(onSqlite),
    "PostgreSQL, 1 process": setupOf(onFirst),
    "PostgreSQL, 2 processes": setupOf(onFirst, onSecond),
    "PostgreSQL, --workers 2": setupOf(onCluster),
  });
  report(figures);
  if (redis.exited) throw new Error("the bench's redis-server exited during the run");
} catch (error) {
  failed = true;
  console.error(`scale-out bench failed: ${error.stack ?? error}`);
  console.error(`logs kept in ${work}`);
} finally {
  for (const proc of [...children]) await stop(proc).catch(() => {});
  await database?.drop().catch(() => {});
  if (!failed) rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
