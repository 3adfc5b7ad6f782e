// A soak run: starts the built server as a child process on a fresh data directory (or on the database in
// DATABASE_URL when it is set: the run's records stay there), first grows its tables (works with long
// timelines, tags) past --grow records through the interface, then drives it for --minutes with a realistic
// mix of concurrent reads and writes. Every --every seconds it prints each operation's p50/p99 over that
// interval and the server's resident memory (RSS); at the end, each read's p99 over the last interval
// against the goal (25 ms) and the RSS growth after the growing phase (goal: 10% at most).
//
// The mix is paced at --rate requests a second (a steady load, as a service meets it, well under what this
// server sustains on two cores; the workers then wait for their turn, and latency is the server's, not a
// queue's); `--rate 0` drives it as fast as the workers go (a saturation run: latency then is mostly queueing
// behind the other workers). Each interval's line says the rate reached.
//
// RSS growth compares like with like: the highest RSS of the warm-up (the last sample of growing and the mix's
// first --warmup minutes) against the highest RSS of the run's last --warmup minutes. One sample is not a
// baseline: RSS swings by 15-20% between samples as the collector runs, and a sample taken in a dip once
// made a flat run read as 20% growth.
//   pnpm soak                       (30 minutes at 200 req/s)
//   pnpm soak --minutes 3 --grow 20000 --concurrency 16 --every 30 --rate 0
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { postJson, runCli, startServer } from "../test/support/servers.mjs";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    grow: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "16" },
    every: { type: "string", default: "30" },
    rate: { type: "string", default: "200" },
    warmup: { type: "string", default: "3" },
  },
});
const minutes = Number(values.minutes);
const grow = Number(values.grow);
const concurrency = Number(values.concurrency);
const every = Number(values.every);
const rate = Number(values.rate);
// At most a third of the run, so that the warm-up and the end windows never overlap.
const warmup = Math.min(Number(values.warmup), Number(values.minutes) / 3);
if (!(rate >= 0))
  throw new Error("--rate must be a number of requests a second (0: as fast as the workers go)");
for (const [name, value] of Object.entries({ minutes, concurrency, every, warmup })) {
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
}
if (!(grow >= 0)) throw new Error("--grow must be a number of records");
const READ_P99_GOAL_MS = 25;
const RSS_GROWTH_GOAL = 0.1;

const dataDir = mkdtempSync(join(tmpdir(), "workapi-soak-"));
const env = { WORKAPI_DATA_DIR: dataDir, WORKAPI_RATE_LIMIT_MAX: "1000000000" };
const scopes = "tag:all,product:all,issue:all,dev_user:read";
const { stdout } = await runCli(["token", "create", "--scopes", scopes], env);
const token = stdout.trim();

// The server's errors show in this run's output.
const server = await startServer({ env, stderr: "inherit" });
const { child, url } = server;

/** The child's resident set size in MiB, from /proc (Linux), or NaN elsewhere. */
function rssMiB() {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
}

const post = (path, body) => postJson(url, token, path, body);

const self = (await post("/dev-users.self", {})).body.dev_user.id;
const part = (await post("/parts.create", { type: "product", name: "soak", owned_by: [self] })).body.part.id;

const run = randomBytes(3).toString("hex");
const counts = { requests: 0, ok: 0, clientErrors: 0, serverErrors: 0, shed: 0, failed: 0 };
let growing = true;
/** Latencies (ms) per operation in the current interval. */
let latencies = new Map();
let records = 0;

async function timed(name, path, body) {
  const start = performance.now();
  try {
    let answer = await post(path, body);
    // Growing drives the server as fast as it goes: what it sheds (503) is sent again after a pause.
    while (answer.status === 503 && growing) {
      counts.shed++;
      await sleep(100);
      answer = await post(path, body);
    }
    const list = latencies.get(name) ?? [];
    list.push(performance.now() - start);
    latencies.set(name, list);
    counts.requests++;
    if (answer.status === 503) counts.shed++;
    else if (answer.status >= 500) counts.serverErrors++;
    else if (answer.status >= 400) counts.clientErrors++;
    else counts.ok++;
    return answer;
  } catch {
    counts.failed++;
    return undefined;
  }
}

/** The works whose timelines grow, and the cursors of their timelines' later pages. */
const works = [];
const pick = (list) => list[Math.floor(Math.random() * list.length)];

async function newWork(n, i) {
  const answer = await timed("works.create", "/works.create", {
    type: "issue",
    title: `soak ${run} ${n} ${i}`,
    applies_to_part: part,
    owned_by: [self],
  });
  const id = answer?.body?.work?.id;
  if (id) works.push(id);
  records++;
}

async function comment(i) {
  const object = pick(works);
  if (!object) return;
  await timed("timeline-entries.create", "/timeline-entries.create", {
    type: "timeline_comment",
    object,
    body: `soak comment ${i}`,
  });
  records++;
}

/** Growing: mostly timeline comments on a few hundred works (long timelines), some works and tags. */
async function grower(n) {
  for (let i = 0; records < grow; i++) {
    if (works.length < 200 || i % 20 === 0) await newWork(n, i);
    else if (i % 10 === 5) {
      await timed("tags.create", "/tags.create", { name: `soak-${run}-${n}-${i}` });
      records++;
    } else await comment(i);
  }
}

/** The mix's pace: each request takes the next slot of `rate` a second, waiting for it when early. */
let slots = 0;
let pacedFrom = 0;
async function turn() {
  if (rate === 0) return;
  if (slots === 0) pacedFrom = performance.now();
  const due = pacedFrom + (slots++ * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await sleep(wait);
}

/** The measured mix: two reads to each write, as clients of a tracker read. */
async function worker(n, deadline) {
  let cursor;
  for (let i = 0; Date.now() < deadline; i++) {
    await turn();
    switch (i % 9) {
      case 0:
        await newWork(n, i);
        break;
      case 1:
        await comment(i);
        break;
      case 2:
        await timed("tags.create", "/tags.create", { name: `soak-${run}-m-${n}-${i}` });
        break;
      case 3:
        cursor = (await timed("works.list", "/works.list", { limit: 50, ...(cursor ? { cursor } : {}) }))
          ?.body?.next_cursor;
        break;
      case 4:
        await timed("works.get", "/works.get", { id: pick(works) });
        break;
      case 5:
      case 6:
        await timed("timeline-entries.list", "/timeline-entries.list", { object: pick(works), limit: 50 });
        break;
      case 7:
        await timed("tags.list", "/tags.list", { limit: 50 });
        break;
      default:
        await timed("works.list (modified)", "/works.list", { limit: 50, sort_by: ["modified_date:desc"] });
    }
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Prints the interval's p50/p99 per operation and the RSS; returns the interval's figures. */
let requestsAtLastReport = 0;
let lastReportAt = Date.now();
function report(phase, started) {
  const elapsed = (Date.now() - started) / 1000;
  const reached =
    (counts.requests - requestsAtLastReport) / Math.max(0.001, (Date.now() - lastReportAt) / 1000);
  requestsAtLastReport = counts.requests;
  lastReportAt = Date.now();
  const mib = rssMiB();
  const figures = {};
  for (const [name, list] of [...latencies].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = list.sort((a, b) => a - b);
    figures[name] = { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
  latencies = new Map();
  console.log(
    `${phase} ${elapsed.toFixed(0).padStart(5)} s  rss ${mib.toFixed(1)} MiB  records ~${records}  ` +
      `requests ${counts.requests} (${reached.toFixed(0)}/s)  shed ${counts.shed}  other 5xx ${counts.serverErrors}  ` +
      `failed ${counts.failed}`,
  );
  for (const [name, f] of Object.entries(figures)) {
    console.log(
      `    ${name.padEnd(26)} n ${String(f.n).padStart(6)}  p50 ${f.p50.toFixed(1).padStart(7)} ms  p99 ${f.p99.toFixed(1).padStart(7)} ms`,
    );
  }
  return { mib, figures, at: Date.now() };
}

async function phase(name, work) {
  const started = Date.now();
  const reports = [];
  const timer = setInterval(() => reports.push(report(name, started)), every * 1000);
  await Promise.all(Array.from({ length: concurrency }, (_, n) => work(n)));
  clearInterval(timer);
  reports.push(report(name, started));
  return reports;
}

const pace = rate === 0 ? "as fast as they go" : `${rate} req/s`;
console.log(
  `soak: grow to ${grow} records, then ${minutes} min, ${concurrency} workers at ${pace}, against ${url}`,
);
const grown = await phase("grow", grower);
growing = false;
const mixStarted = Date.now();
const deadline = mixStarted + minutes * 60_000;
const reports = await phase("mix ", (n) => worker(n, deadline));
const sampled = [grown[grown.length - 1], ...reports].filter((r) => r && !Number.isNaN(r.mib));
const rss = sampled.map((r) => r.mib);
const highest = (list) => Math.max(...list.map((r) => r.mib));
const warm = sampled.filter((r) => r.at <= mixStarted + warmup * 60_000);
const end = sampled.filter((r) => r.at >= Date.now() - warmup * 60_000);
const first = warm.length > 0 ? highest(warm) : Number.NaN;
const last = end.length > 0 ? highest(end) : Number.NaN;
const growth = (last - first) / first;
console.log(
  `done: ${counts.requests} requests, ${counts.shed} shed (503), ${counts.serverErrors} other 5xx, ` +
    `${counts.failed} failed, ~${records} records`,
);
console.log(
  `rss: highest of the warm-up (${warm.length} samples, ${warmup} min) ${first.toFixed(1)} MiB -> ` +
    `highest of the last ${warmup} min (${end.length} samples) ${last.toFixed(1)} MiB ` +
    `(lowest ${Math.min(...rss).toFixed(1)}, highest ${Math.max(...rss).toFixed(1)}): ` +
    `${(growth * 100).toFixed(1)}% (goal <= ${RSS_GROWTH_GOAL * 100}%): ` +
    `${growth <= RSS_GROWTH_GOAL ? "ok" : "over the goal"}`,
);
// The end: of the last two intervals, the fuller one (the final report may hold only the requests that were
// still under way at the deadline).
const served = (r) => Object.values(r?.figures ?? {}).reduce((sum, f) => sum + f.n, 0);
const [before, final] = reports.slice(-2);
const lastFigures = (served(final) >= served(before) ? final : before)?.figures ?? {};
for (const [name, f] of Object.entries(lastFigures)) {
  if (/\.(list|get)/.test(name)) {
    const verdict = f.p99 <= READ_P99_GOAL_MS ? "ok" : "over the goal";
    console.log(
      `read ${name}: p99 ${f.p99.toFixed(1)} ms at the end (goal <= ${READ_P99_GOAL_MS} ms): ${verdict}`,
    );
  }
}
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exitCode = counts.serverErrors > 0 || counts.failed > 0 ? 1 : 0;
