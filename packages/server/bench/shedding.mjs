// Load shedding, as shipped. Three parts (`--only suites|closed|open` runs one):
//
// Parallel test suites (./parallel-suite.mjs), the stand-in's first users: `--files` files at once, each a
// seeded sandbox with writes and reads, raw fetch, each caller waiting; then bursts of 20 empty and 8 seeded
// sandboxes.create, each followed by one request. On a server as shipped with a database of its own, SQLite
// and (DATABASE_URL set) PostgreSQL with Redis. Goal: no 503, no 5xx, nothing but the expected statuses.
//
// The other parts start the built server (SQLite, a fresh data directory seeded with `seed --works 300`, the
// rate limit and the per-address connection limit raised out of the way, every other setting its default)
// and, on the same data, the same server with shedding off.
//
// Closed loops (./closed-loops.mjs): autocannon's callers, each waiting for its answer, at `--closed`
// connections on works.get, tags.list and works.create, and at 200 with a CPU-bound process beside; 2xx a
// second as shipped against shedding off, in interleaved pairs. Goal: >= 0.9x (0.8x with the CPU hog), and
// no 503 at all where the server with shedding off answers within the 20 ms delay goal.
//
// Open loops (./open-loop.mjs: the offered load does not fall when the server slows): the sustainable load of
// a mix (works.get, works.list, tags.list, some works.create) is the throughput of a closed loop of a few
// connections; `--levels` multiples of it are offered. For each level, the medians of the repetitions: offered
// and served (2xx) req/s, goodput (served over the sustainable rate), the 503 answers (and how many carried
// Retry-After), and the p50/p99 latency of the served requests alone, timed from when each was due. Goals:
// goodput >= 0.8x at 2x and 4x, >= 0.5x at 10x. The open loop is one client with a pool of `--sockets`
// connections (200): a request due while all are busy waits in the client, where no server can see it (to the
// server, such a pool is a closed loop of 200 callers), so its latency is printed, not judged.
//
// Each run is followed by the same load offered to the floor (./refusing-peer.mjs): bare Node answering every
// request with a prebuilt 503, what no shedding server could beat on this machine.
//
// `failed`: connection errors and requests unanswered 10 s after the offered load ended.
//
//   pnpm --filter @workapi/server bench:shedding [--only suites|closed|open] [--files 8,16,32]
//     [--closed 20,50,200,1000] [--closed-duration s] [--closed-repetitions n] [--duration s]
//     [--repetitions n] [--connections n] [--rate r] [--sockets n] [--levels 2,4,10] [--keep-logs]
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { childProcesses } from "./children.mjs";
import { closedLoopRows, printClosedLoops } from "./closed-loops.mjs";
import { median } from "./measure.mjs";
import { closedLoop, openLoop, percentile } from "./open-loop.mjs";
import { burst, ownDatabase, parallelSuite, percentileOf } from "./parallel-suite.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = resolve(here, "..");
const cli = join(serverDir, "dist/cli.js");

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    repetitions: { type: "string", default: "3" },
    connections: { type: "string", default: "8" },
    rate: { type: "string", default: "0" },
    sockets: { type: "string", default: "200" },
    levels: { type: "string", default: "2,4,10" },
    closed: { type: "string", default: "20,50,200,1000" },
    "closed-duration": { type: "string", default: "5" },
    "closed-repetitions": { type: "string", default: "3" },
    files: { type: "string", default: "8,16,32" },
    only: { type: "string", default: "" },
    "keep-logs": { type: "boolean", default: false },
  },
});
const duration = Number(flags.duration);
const repetitions = Number(flags.repetitions);
const connections = Number(flags.connections);
const fixedRate = Number(flags.rate);
const sockets = Number(flags.sockets);
// The loads offered, as multiples of the sustainable one; the goal is checked at the last.
const LEVELS = flags.levels.split(",").map(Number);
if (!LEVELS.every((factor) => factor > 0)) throw new Error("--levels must be multiples, e.g. 1,2,4");
for (const [name, value] of Object.entries({ duration, repetitions, connections, sockets })) {
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`--${name} must be a positive whole number`);
}
if (!(fixedRate >= 0)) throw new Error("--rate must be a number of requests a second (0: measure it)");

const work = mkdtempSync(join(tmpdir(), "workapi-shedding-"));
const dataDir = join(work, "data");
const { serverEnv, startServer, start, freePort, stop, ready } = childProcesses({ work, serverDir });
// The load comes from one address: the per-address connection limit is lifted with the rate limit.
const env = {
  ...serverEnv("production"),
  WORKAPI_DATA_DIR: dataDir,
  WORKAPI_RATE_LIMIT_MAX: "1000000000",
  WORKAPI_MAX_CONNECTIONS_PER_ADDRESS: "0",
};
const loadBefore = loadavg();

// The seed makes the organization and its admin token (every scope) on the empty data directory.
await promisify(execFile)(process.execPath, [cli, "seed", "--works", "300"], { env });
const token = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
const server = await startServer(env, { logLevel: "warn" });
// The same server with shedding off, on the same data: the closed loops' reference.
const unshed = await startServer({ ...env, WORKAPI_MAX_EVENT_LOOP_DELAY_MS: "0" }, { logLevel: "warn" });
const url = server.url;
const peer = await startRefusingPeer();
let failed = false;
try {
  await ready(server, `${url}/health`);
  await ready(unshed, `${unshed.url}/health`);
  const next = await theMix();
  const options = { url, token, next };
  if (!flags.only || flags.only === "suites") await suites();
  if (!flags.only || flags.only === "closed") await closedLoops(next);
  if (!flags.only || flags.only === "open") await openLoops(options);
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`logs kept in ${work}`);
} finally {
  await stop(server);
  await stop(unshed);
  await stop(peer);
  if (!failed && !flags["keep-logs"]) rmSync(work, { recursive: true, force: true });
  else if (!failed) console.log(`logs kept in ${work}`);
}
process.exitCode = failed ? 1 : 0;

/** The open loops: the sustainable load, then each level of it offered to the server and to the floor. */
async function openLoops(options) {
  await closedLoop({ ...options, connections, duration: 3 }); // warm-up
  const sustainable = fixedRate || (await measureSustainable(options));
  const results = [];
  for (const factor of LEVELS) {
    const runs = [];
    for (let repetition = 1; repetition <= repetitions; repetition++) {
      await idle(); // the backlog and the shedding of the run before have ended
      const rate = factor * sustainable;
      const run = summary(await openLoop({ ...options, rate, duration, sockets }));
      console.log(`  ${factor}x #${repetition}: ${line(run)}`);
      await sleep(3000);
      const floor = summary(await openLoop({ ...options, url: peer.url, rate, duration, sockets }));
      console.log(`  ${factor}x #${repetition}, bare Node refusing all: ${line(floor)}`);
      runs.push({ ...run, peerAnsweredRps: floor.answeredRps, peerP99: floor.shedP99 });
    }
    results.push({ factor, ...medians(runs) });
  }
  printTable(results, sustainable);
}

/**
 * Parallel test suites (./parallel-suite.mjs) of `--files` files against a server as shipped on a database of
 * its own, SQLite and (DATABASE_URL set) PostgreSQL with Redis, then bursts of 20 empty and 8 seeded
 * sandboxes.create, each followed by one works.list. Goal: no 503, no 5xx, no status but the expected ones.
 */
async function suites() {
  const databases = process.env.DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
  if (!process.env.DATABASE_URL) console.log("suites: DATABASE_URL is not set; SQLite only");
  const rows = [];
  for (const database of databases) {
    const own = join(work, `suites-${database}`);
    const database_ = database === "postgres" ? await ownDatabase() : undefined;
    const suiteEnv = {
      ...serverEnv("production", database_?.url),
      WORKAPI_DATA_DIR: own,
      ...(database === "postgres" ? { REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } : {}),
    };
    const tokenFile = join(own, "operator-token");
    await promisify(execFile)(
      process.execPath,
      [cli, "org", "create", "--name", "suites", "--token-file", tokenFile],
      {
        env: suiteEnv,
      },
    );
    const operator = readFileSync(tokenFile, "utf8").trim();
    const proc = await startServer(suiteEnv, { logLevel: "warn" });
    try {
      await ready(proc, `${proc.url}/health`);
      const target = { url: proc.url, token: operator };
      await parallelSuite({ ...target, files: 1, rounds: 1 }); // the first seeded create builds the template
      for (const files of flags.files.split(",").map(Number)) {
        const result = await parallelSuite({ ...target, files });
        rows.push({ database, load: `${files} files`, ...result });
        console.log(
          `  ${database}, ${files} files: ${result.requests} requests, 503 ${result.refused}, 5xx ${result.serverErrors}`,
        );
      }
      for (const [count, seed] of [
        [20, false],
        [8, true],
      ]) {
        rows.push({
          database,
          load: `${count} ${seed ? "seeded " : ""}creates, then one`,
          ...(await burst(target, count, seed)),
        });
      }
    } finally {
      await stop(proc);
      await database_?.drop();
    }
  }
  console.log(
    "\nparallel test suites and bursts, the server as shipped (raw fetch, no retries, each caller waiting)",
  );
  const header = [
    "database",
    "load",
    "requests",
    "503",
    "5xx",
    "unexpected",
    "create p50",
    "create p99",
    "all p99",
    "",
  ];
  const lines = rows.map((r) => [
    r.database,
    r.load,
    String(r.requests),
    String(r.refused),
    String(r.serverErrors),
    String(r.unexpected.length),
    ms(percentileOf(r.createMs, 50)),
    ms(percentileOf(r.createMs, 99)),
    ms(percentileOf(r.ms, 99)),
    r.unexpected.length === 0 && r.refused === 0 && r.serverErrors === 0 ? "pass" : "FAIL",
  ]);
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  for (const row of all) console.log(row.map((cell, i) => cell.padStart(widths[i])).join("  "));
}

/** The closed loops of `--closed` connections on works.get, tags.list and works.create, shipped and off. */
async function closedLoops(next) {
  const sample = {};
  for (let i = 0; i < 10; i++) {
    const request = next();
    sample[request.path] ??= request.body;
  }
  const targets = ["/works.get", "/tags.list", "/works.create"].map((path) => ({
    name: path.slice(1),
    path,
    body: sample[path],
  }));
  const counts = flags.closed.split(",").map(Number);
  const rows = targets.flatMap((target) => [
    ...counts.map((count) => ({ target, connections: count })),
    { target, connections: 200, hog: true },
  ]);
  const knobs = {
    duration: Number(flags["closed-duration"]),
    repetitions: Number(flags["closed-repetitions"]),
  };
  const results = await closedLoopRows({
    shipped: { url, token },
    off: { url: unshed.url, token },
    rows,
    ...knobs,
    log: console.log,
  });
  printClosedLoops(results, knobs);
}

/** Waits until /health answers within 20 ms three times in a row (at most 60 s), then 3 s more. */
async function idle() {
  const deadline = Date.now() + 60_000;
  for (let quick = 0; quick < 3 && Date.now() < deadline; ) {
    const started = performance.now();
    const answer = await fetch(`${url}/health`).catch(() => undefined);
    await answer?.arrayBuffer();
    quick = answer?.status === 200 && performance.now() - started < 20 ? quick + 1 : 0;
    await sleep(100);
  }
  await sleep(3000);
}

async function call(path, body) {
  const answer = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

/** The mix, in ten requests: 4 works.get, 3 works.list, 2 tags.list, 1 works.create. */
async function theMix() {
  const ids = [];
  let cursor;
  do {
    const page = await call("/works.list", { limit: 100, ...(cursor ? { cursor } : {}) });
    ids.push(...page.works.map((w) => w.id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < 300);
  const self = (await call("/dev-users.self", {})).dev_user.id;
  const part = (await call("/parts.create", { type: "product", name: "shedding", owned_by: [self] })).part.id;
  let i = 0;
  const pick = () => ids[Math.floor(Math.random() * ids.length)];
  return () => {
    switch (i++ % 10) {
      case 0:
        return {
          path: "/works.create",
          body: { type: "issue", title: `shed ${i}`, applies_to_part: part, owned_by: [self] },
        };
      case 1:
      case 4:
      case 7:
        return { path: "/works.list", body: { limit: 20 } };
      case 2:
      case 6:
        return { path: "/tags.list", body: { limit: 20 } };
      default:
        return { path: "/works.get", body: { id: pick() } };
    }
  };
}

/** The median throughput of a closed loop of `connections` over the repetitions, in 2xx req/s. */
async function measureSustainable(options) {
  const rates = [];
  let shedRuns = 0;
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    const figures = await closedLoop({ ...options, connections, duration: 5 });
    const run = summary(figures);
    console.log(`  closed loop, ${connections} connections #${repetition}: ${line(run)}`);
    rates.push(run.servedRps);
    if (figures.shed > figures.sent / 100) shedRuns++;
  }
  const rate = Math.round(median(rates));
  console.log(`sustainable: ${rate} req/s (median of ${repetitions})`);
  if (shedRuns > 0) {
    // Seen once on a busy machine: the closed loop, whose callers send again at once when refused, kept the
    // server behind, and it served 235 req/s against some 2,600 in the runs before and after. Such a figure
    // is the pace of refusals, not the server's: the levels offered from it measure nothing.
    console.log(
      `WARNING: ${shedRuns} of ${repetitions} closed-loop runs were answered 503 (shed); the sustainable ` +
        "figure above is not the server's capacity (see README: Load shedding)",
    );
  }
  return rate;
}

/**
 * The floor (./refusing-peer.mjs): bare Node answering every request with a 503 of the same headers and
 * form, offered the same loads. What it cannot answer in time at a rate, no shedding server could here.
 */
async function startRefusingPeer() {
  const port = await freePort();
  const body = join(work, "refusal.json");
  const message = "The server is overloaded; retry in 2 seconds.";
  writeFileSync(body, JSON.stringify({ type: "service_unavailable", message, detail: message }));
  const proc = start("refusing-peer", process.execPath, [
    join(here, "refusing-peer.mjs"),
    String(port),
    body,
  ]);
  proc.url = `http://127.0.0.1:${port}`;
  // It answers 503, never 200 (`ready` waits for a 200): wait until it answers at all.
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(proc.url).catch(() => undefined);
    await answer?.arrayBuffer();
    if (answer?.status === 503) return proc;
    if (attempt === 200 || proc.exited) throw new Error("the refusing peer did not start");
    await sleep(50);
  }
}

function summary(f) {
  return {
    offeredRps: f.sent / f.offeredSeconds,
    servedRps: f.ok / f.seconds,
    answeredRps: (f.ok + f.shed + f.other) / f.seconds,
    shed: f.shed,
    shedWithRetryAfter: f.shedWithRetryAfter,
    otherStatus: f.other,
    failed: f.errors + f.unanswered,
    p50: percentile(f.served, 50),
    p99: percentile(f.served, 99),
    shedP99: percentile(f.shedMs, 99),
    lateMs: f.lateMs,
  };
}

function medians(runs) {
  return Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(runs.map((run) => run[key]))]));
}

function ms(value) {
  return Number.isNaN(value) ? "-" : `${value.toFixed(1)} ms`;
}

function line(r) {
  return (
    `offered ${Math.round(r.offeredRps)}/s, served ${Math.round(r.servedRps)}/s ` +
    `(p50 ${ms(r.p50)}, p99 ${ms(r.p99)}), 503 ${r.shed} (Retry-After ${r.shedWithRetryAfter}, p99 ${ms(r.shedP99)}), ` +
    `other ${r.otherStatus}, failed ${r.failed}, client late ${ms(r.lateMs)}`
  );
}

/** The goal of a level: goodput (served over the sustainable rate). */
function goalsOf(factor) {
  return { goodput: factor >= 10 ? 0.5 : 0.8 };
}

function printTable(results, sustainable) {
  console.log(
    `\nopen loops: sustainable ${sustainable} req/s, ${duration} s per run, medians of ${repetitions}, up to ` +
      `${sockets} connections; the server as shipped (WORKAPI_MAX_EVENT_LOOP_DELAY_MS=` +
      `${process.env.WORKAPI_MAX_EVENT_LOOP_DELAY_MS ?? "default"}); load average ${fmtLoad(loadBefore)} ` +
      `before, ${fmtLoad(loadavg())} after`,
  );
  const header = ["load", "offered/s", "served 2xx/s", "goodput", "served p50", "served p99", "503"];
  header.push("Retry-After", "503 p99", "other", "failed", "floor answered/s", "floor p99", "goals", "");
  const rows = results.map((r) => {
    const goals = goalsOf(r.factor);
    const goodput = r.servedRps / sustainable;
    const pass = goodput >= goals.goodput;
    return [
      `${r.factor}x`,
      String(Math.round(r.offeredRps)),
      String(Math.round(r.servedRps)),
      `${goodput.toFixed(2)}x`,
      ms(r.p50),
      ms(r.p99),
      String(r.shed),
      String(r.shedWithRetryAfter),
      ms(r.shedP99),
      String(r.otherStatus),
      String(r.failed),
      String(Math.round(r.peerAnsweredRps)),
      ms(r.peerP99),
      `>= ${goals.goodput}x`,
      pass ? "pass" : "FAIL",
    ];
  });
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i].length)));
  for (const row of all) console.log(row.map((cell, i) => cell.padStart(widths[i])).join("  "));
}

function fmtLoad(values) {
  return values.map((v) => v.toFixed(2)).join(" ");
}
