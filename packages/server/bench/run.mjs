// The server's benchmark, with its peers measured in the same run: builds, seeds a database, starts the workapi
// server in production mode, a bare Fastify app answering the byte-identical responses (the limit), and Prism
// mocking the contract (a server that stores nothing); drives each with autocannon (same connections and
// duration, several repetitions run interleaved so a busy machine's drift hits every peer alike, medians) and
// prints one table of figures, peer figures, ratios and goals, plus a JSON file and bench/RESULTS.md.
//   pnpm bench [--quick] [--json file] [--connections n] [--duration s] [--repetitions n] [--works n]
//              [--profile] [--no-build]
//
// DATABASE_URL set: also PostgreSQL (a database of its own, seeded the same, dropped afterwards) vs SQLite.
// Figures only: the exit code is 0 whatever the goals say, unless the run itself failed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { requireSameBytes, startByHand } from "./by-hand-peer.mjs";
import { childProcesses } from "./children.mjs";
import { loadInProcess } from "./load-process.mjs";
import { getJson, interleavedTimes, median } from "./measure.mjs";
import { formatSummary, summarizeProfile } from "./profile.mjs";
import { writeResults } from "./results.mjs";
import { scaleOutRows } from "./scale-out-rows.mjs";
import { formatClientCpu, formatTable, runMeta, tableRows } from "./table.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = resolve(here, "..");
const root = resolve(serverDir, "../..");
const cli = join(serverDir, "dist/cli.js");
const started = performance.now();

const { values: flags } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    json: { type: "string", default: join(root, "bench-results.json") },
    connections: { type: "string" },
    duration: { type: "string" },
    repetitions: { type: "string" },
    works: { type: "string", default: "10000" },
    profile: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
  },
});
const quick = flags.quick;
const knobs = {
  connections: Number(flags.connections ?? 10),
  duration: Number(flags.duration ?? (quick ? 2 : 10)),
  repetitions: Number(flags.repetitions ?? (quick ? 2 : 3)),
  works: Number(flags.works),
  warmUp: quick ? 2 : 5,
  coldStarts: quick ? 3 : 5,
  exportRuns: quick ? 9 : 15,
  sequential: quick ? 100 : 500,
};
for (const [name, value] of Object.entries(knobs)) {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
}
const log = (line) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(0)}s] ${line}\n`);

const work = mkdtempSync(join(tmpdir(), "workapi-bench-"));
const { children, start, startServer, stop, ready, rssMb, serverEnv, freePort } = childProcesses({
  work,
  serverDir,
});

async function startWorkapi(name, { mode = "production", dataDir, databaseUrl, nodeArgs = [], entry = cli }) {
  // Far above what a run sends: the bench measures serving, not the limiter's 429s.
  const args = ["--data-dir", dataDir, "--rate-limit", "1000000000"];
  const proc = await startServer(serverEnv(mode, databaseUrl), { name, args, nodeArgs, entry });
  await ready(proc, `${proc.url}/health`);
  return proc;
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

/** A data directory (and database, when given) holding the admin token and `works` seeded work items. */
async function seedData(name, databaseUrl) {
  const dataDir = join(work, name);
  // The first start creates the organization and writes its admin token to <dataDir>/admin-token.
  const first = await startWorkapi(`${name}-first-start`, { dataDir, databaseUrl });
  await stop(first);
  const seedStarted = performance.now();
  run(process.execPath, [cli, "seed", "--data-dir", dataDir, "--works", String(knobs.works)], {
    ...serverEnv("production", databaseUrl),
  });
  log(`seeded ${knobs.works} works (${name}) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
  return { dataDir, token: readFileSync(join(dataDir, "admin-token"), "utf8").trim() };
}

// Each load runs in a process of its own, which reports the CPU it used: a saturated load generator shows.
const load = (target, options = {}) =>
  loadInProcess(target, { connections: knobs.connections, duration: knobs.duration, ...options });

// ---------------------------------------------------------------------------------------------------------

const raw = {};
const meta = runMeta({ quick, knobs });
const { rows, row } = tableRows();

let pgDatabase;
try {
  if (!flags["no-build"]) {
    log("building @workapi/server, @workapi/client and their dependencies (turbo)");
    run("pnpm", [
      "exec",
      "turbo",
      "run",
      "build",
      "--filter=@workapi/server...",
      "--filter=@workapi/client...",
      "--output-logs=errors-only",
    ]);
  }

  // Prism takes seconds to start: let it do so while the database is seeded.
  const prismPort = await freePort();
  const prism = start("prism", join(serverDir, "node_modules/.bin/prism"), [
    "mock",
    join(root, "packages/spec/openapi.json"),
    "--host",
    "127.0.0.1",
    "--port",
    String(prismPort),
    "--verboseLevel",
    "warn",
  ]);
  prism.url = `http://127.0.0.1:${prismPort}`;

  const sqlite = await seedData("sqlite");
  let postgres;
  if (process.env.DATABASE_URL) {
    // Imported here, not at the top: it is the built server's helper, and the build above makes it.
    const { temporaryDatabase } = await import("../test/support/databases.mjs");
    pgDatabase = await temporaryDatabase(process.env.DATABASE_URL, "workapi_bench");
    postgres = { ...(await seedData("postgres", pgDatabase.url)), databaseUrl: pgDatabase.url };
  }

  const ours = await startWorkapi("workapi", { dataDir: sqlite.dataDir });
  const dev = await startWorkapi("workapi-development", { dataDir: sqlite.dataDir, mode: "development" });
  const ourPg = postgres
    ? await startWorkapi("workapi-postgres", { dataDir: postgres.dataDir, databaseUrl: postgres.databaseUrl })
    : undefined;
  const auth = { authorization: `Bearer ${sqlite.token}` };
  const pgAuth = postgres ? { authorization: `Bearer ${postgres.token}` } : undefined;

  // The requests measured, with ids from the seeded data.
  const firstWork = async (url, headers) =>
    (await getJson(`${url}/works.list?limit=1&type=issue`, headers)).works[0].id;
  const workId = await firstWork(ours.url, auth);
  const getPath = `/works.get?id=${encodeURIComponent(workId)}`;
  const tagsPath = "/tags.list";
  const json = { "content-type": "application/json" };
  // works.create on `url`'s seeded data (its first part and user), as `headers`' caller, sent to `to`.
  const creating = async (url, headers, to = url) => ({
    url: `${to}/works.create`,
    method: "POST",
    headers: { ...headers, ...json },
    body: JSON.stringify({
      type: "issue",
      title: "Benchmark work",
      applies_to_part: (await getJson(`${url}/parts.list?limit=1`, headers)).parts[0].id,
      owned_by: [(await getJson(`${url}/dev-users.list?limit=1`, headers)).dev_users[0].id],
    }),
  });

  // The bare peer answers our exact bytes for the same requests.
  const routes = [];
  for (const path of [getPath, tagsPath]) {
    const response = await fetch(`${ours.url}${path}`, { headers: auth });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    routes.push({
      url: path,
      contentType: response.headers.get("content-type"),
      body: body.toString("base64"),
    });
    raw[`bytes ${path.split("?")[0]}`] = body.length;
  }
  const routesFile = join(work, "routes.json");
  writeFileSync(routesFile, JSON.stringify({ routes }));
  const startBare = async () => {
    const port = await freePort();
    const proc = start("bare-fastify", process.execPath, [
      join(here, "bare-peer.mjs"),
      routesFile,
      String(port),
    ]);
    proc.url = `http://127.0.0.1:${port}`;
    proc.coldMs = await ready(proc, `${proc.url}${getPath}`);
    return proc;
  };
  const bare = await startBare();
  // The same reads written by hand over the same file; its answers must be ours, byte for byte.
  const byHand = await startByHand({ start, freePort, ready }, sqlite.dataDir, getPath, auth);
  await requireSameBytes(ours.url, byHand.url, [getPath, tagsPath], auth);
  await ready(prism, `${prism.url}${getPath}`, auth);
  log(`peers up: workapi ${ours.url}, development ${dev.url}, bare ${bare.url}, prism ${prism.url}`);

  await sleep(2000);
  const idleRss = rssMb(ours);
  const bareRss = rssMb(bare);

  const targets = {
    "works.get": {
      workapi: { url: ours.url + getPath, headers: auth },
      "bare Fastify": { url: bare.url + getPath },
      "by hand": { url: byHand.url + getPath, headers: auth },
      Prism: { url: prism.url + getPath, headers: auth },
      development: { url: dev.url + getPath, headers: auth },
      ...(ourPg
        ? {
            PostgreSQL: {
              url: `${ourPg.url}/works.get?id=${encodeURIComponent(await firstWork(ourPg.url, pgAuth))}`,
              headers: pgAuth,
            },
          }
        : {}),
    },
    "tags.list": {
      workapi: { url: ours.url + tagsPath, headers: auth },
      "bare Fastify": { url: bare.url + tagsPath },
      "by hand": { url: byHand.url + tagsPath, headers: auth },
      Prism: { url: prism.url + tagsPath, headers: auth },
      ...(ourPg ? { PostgreSQL: { url: ourPg.url + tagsPath, headers: pgAuth } } : {}),
    },
    "works.create": {
      workapi: await creating(ours.url, auth),
      Prism: await creating(ours.url, auth, prism.url),
      ...(ourPg ? { PostgreSQL: await creating(ourPg.url, pgAuth) } : {}),
    },
  };
  for (const [scenario, peers] of Object.entries(targets)) {
    for (const [peer, target] of Object.entries(peers)) target.label = `${scenario} ${peer}`;
  }

  // The server keeps getting faster for its first thousand requests or so (JIT, statement caches, the page
  // cache): without a warm-up the first repetition measures that instead.
  log(`warming up every peer (${knobs.warmUp} s each)`);
  for (const peers of Object.values(targets)) {
    for (const target of Object.values(peers)) await load(target, { duration: knobs.warmUp });
  }

  // Repetitions, each running every peer of every scenario in turn, in the opposite order every other
  // repetition (A, B, C, C, B, A, A, B, C...): a machine whose speed drifts during a repetition (this one's did,
  // by up to 2x within a run) or a first load that comes out slower would otherwise always favour the same peer.
  const figures = {};
  const record = (key, result) => {
    figures[key] ??= [];
    figures[key].push(result);
  };
  for (let rep = 1; rep <= knobs.repetitions; rep++) {
    log(`repetition ${rep}/${knobs.repetitions} (load average ${loadavg()[0].toFixed(2)})`);
    const inTurn = (entries) => (rep % 2 === 1 ? entries : [...entries].reverse());
    for (const [scenario, peers] of inTurn(Object.entries(targets))) {
      for (const [peer, target] of inTurn(Object.entries(peers))) {
        record(`${scenario} ${peer}`, await load(target));
      }
    }
    // Reads alone, then the same reads while one writer keeps creating work items (on each database).
    const besideWriter = async (reads, writes, suffix) => {
      record(`reads alone${suffix}`, await load(reads));
      const [withWriter, writer] = await Promise.all([
        load(reads),
        load({ ...writes, label: `writer${suffix}` }, { connections: 1 }),
      ]);
      record(`reads with a writer${suffix}`, withWriter);
      record(`the writer${suffix}`, writer);
    };
    await besideWriter(targets["works.get"].workapi, targets["works.create"].workapi, "");
    if (ourPg) {
      await besideWriter(targets["works.get"].PostgreSQL, targets["works.create"].PostgreSQL, " PostgreSQL");
    }
  }
  const rps = (key) => median(figures[key].map((f) => f.rps));
  // The load generator's CPU as a share of one core over its load: near 100% it, not the server, set the pace.
  const clientCpu = (key, seconds) => median(figures[key].map((f) => f.cpuMs / (seconds * 1000)));
  const p99 = (key) => median(figures[key].map((f) => f.p99));
  raw.load = Object.fromEntries(
    Object.entries(figures).map(([key, runs]) => [key, { rps: rps(key), p99Ms: p99(key), runs }]),
  );
  const rssAfterLoad = rssMb(ours);

  // Deep pages: walk the cursors of works.list (limit 10) to page 1000, then time page 1000 against page 1.
  log("walking works.list to page 1000");
  let cursor;
  for (let page = 1; page < 1000; page++) {
    const body = await getJson(
      `${ours.url}/works.list?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      auth,
    );
    cursor = body.next_cursor;
    if (!cursor) throw new Error(`works.list ends at page ${page}: seed more works`);
  }
  const fetchBytes = (url, headers) => () => fetch(url, { headers }).then((r) => r.arrayBuffer());
  const [page1, page1000] = await interleavedTimes(
    [
      fetchBytes(`${ours.url}/works.list?limit=10`, auth),
      fetchBytes(`${ours.url}/works.list?limit=10&cursor=${encodeURIComponent(cursor)}`, auth),
    ],
    knobs.sequential,
  );

  // works.export of 5,000 items against JSON.stringify of the same payload in this process.
  log("works.export first=5000");
  const exportUrl = `${ours.url}/works.export?first=5000`;
  const payload = await getJson(exportUrl, auth);
  if (payload.works.length !== 5000)
    throw new Error(`works.export gave ${payload.works.length} works, not 5000`);
  // Warmed up first, as every other measure is: the first exports of a run took five times as long (answer
  // headers after 26-37 ms and the 10 MB body 56-71 ms more, against 17 ms in all after a few runs).
  const exportPeers = [fetchBytes(exportUrl, auth), () => JSON.stringify(payload)];
  await interleavedTimes(exportPeers, knobs.exportRuns);
  const [exportMs, stringifyMs] = await interleavedTimes(
    exportPeers,
    knobs.exportRuns,
    ([exportRuns, stringifyRuns]) => {
      raw.exportMs = { export: exportRuns, stringify: stringifyRuns };
    },
  );

  // The client's named call against a raw fetch of the same read.
  log("client named call vs raw fetch");
  const { createClient } = await import(pathToFileURL(join(root, "packages/client/dist/index.js")).href);
  const api = createClient({ baseUrl: ours.url, token: sqlite.token });
  const named = () => api.works.get({ id: workId }, { throwOnError: true });
  const rawFetch = () => fetch(ours.url + getPath, { headers: auth }).then((r) => r.json());
  await interleavedTimes([named, rawFetch], 50);
  const [namedMs, rawMs] = await interleavedTimes([named, rawFetch], knobs.sequential);

  let profile;
  if (flags.profile) {
    log("CPU profile of the server under works.get and tags.list");
    const profileDir = join(work, "profile");
    const profiled = await startWorkapi("workapi-profiled", {
      dataDir: sqlite.dataDir,
      nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
      // The command's modules unbundled, so that the profile names each function's package.
      entry: join(serverDir, "dist/cli.modules.js"),
    });
    const duration = Math.max(knobs.duration, 5);
    await load({ url: profiled.url + getPath, headers: auth, label: "profile warm-up" }, { duration: 1 });
    // The profile starts with the process; only the samples taken under the measured load are summarized.
    const loadFrom = performance.now() - profiled.startedAt;
    await load({ url: profiled.url + getPath, headers: auth, label: "profile works.get" }, { duration });
    await load({ url: profiled.url + tagsPath, headers: auth, label: "profile tags.list" }, { duration });
    await stop(profiled);
    const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error("the profiled server wrote no .cpuprofile");
    profile = summarizeProfile(JSON.parse(readFileSync(join(profileDir, file), "utf8")), 15, loadFrom);
    raw.profile = profile;
  }

  raw.loadGeneratorCpu = Object.fromEntries(
    Object.keys(figures).map((key) => [key, clientCpu(key, knobs.duration)]),
  );
  for (const proc of [ours, dev, bare, byHand, ...(ourPg ? [ourPg] : [])]) await stop(proc);
  await stop(prism);

  // The scale-out factor: one process against `serve --workers 2`, each with a Redis of the run's own.
  const scaleOut = await scaleOutRows({
    helpers: { start, startServer, stop, ready, freePort, serverEnv },
    cli,
    stores: [{ name: "SQLite", ...sqlite }, ...(postgres ? [{ name: "PostgreSQL", ...postgres }] : [])],
    load,
    repetitions: knobs.repetitions,
    warmUp: knobs.warmUp,
    log,
  });

  // Cold start: spawn to the first 200 of works.get on the seeded data, against the bare app's spawn to 200.
  log("cold starts");
  const cold = { workapi: [], bare: [] };
  for (let i = 0; i < knobs.coldStarts; i++) {
    const proc = await startServer(serverEnv("production"), {
      name: "workapi-cold",
      args: ["--data-dir", sqlite.dataDir],
    });
    cold.workapi.push(await ready(proc, `${proc.url}${getPath}`, auth));
    await stop(proc);
    const peer = await startBare();
    cold.bare.push(peer.coldMs);
    await stop(peer);
  }
  raw.coldStartMs = cold;

  const get = "works.get";
  const tags = "tags.list";
  // A throughput row: the req/s of `key` against `peer`'s (of `peerKey`), higher being better.
  const rate = (name, key, peer, peerKey, goal) =>
    row(`${name} (req/s)`, rps(key), "req/s", peer, rps(peerKey), goal, { higher: true });
  rate(get, `${get} workapi`, "bare Fastify", `${get} bare Fastify`, 0.5);
  rate(get, `${get} workapi`, "by hand", `${get} by hand`, 1.2);
  rate(get, `${get} workapi`, "Prism", `${get} Prism`, 10);
  rate(tags, `${tags} workapi`, "bare Fastify", `${tags} bare Fastify`, 0.5);
  rate(tags, `${tags} workapi`, "by hand", `${tags} by hand`, 1.0);
  rate(tags, `${tags} workapi`, "Prism", `${tags} Prism`, 10);
  rate("works.create", "works.create workapi", "Prism", "works.create Prism", 2);
  if (ourPg) {
    rate(`${get} PostgreSQL`, `${get} PostgreSQL`, "SQLite", `${get} workapi`, 0.8);
    rate(`${tags} PostgreSQL`, `${tags} PostgreSQL`, "SQLite", `${tags} workapi`, 0.8);
    rate("works.create PostgreSQL", "works.create PostgreSQL", "Prism", "works.create Prism", 2);
  }
  for (const args of scaleOut) row(...args);
  row("works.export 5,000 (ms)", exportMs, "ms", "JSON.stringify", stringifyMs, 1.5);
  row("works.list page 1000 (ms)", page1000, "ms", "page 1", page1, 1.2);
  rate(`${get} with a writer`, "reads with a writer", "reads alone", "reads alone", 0.8);
  if (ourPg) {
    const pg = " PostgreSQL";
    rate(`${get} with a writer,${pg}`, `reads with a writer${pg}`, "reads alone", `reads alone${pg}`, 0.8);
  }
  row("cold start to first 200 (ms)", median(cold.workapi), "ms", "bare Fastify", median(cold.bare), 500, {
    ratio: median(cold.workapi) / median(cold.bare),
  });
  row("idle RSS (MB)", idleRss, "MB", "bare Fastify", bareRss, 120, { ratio: idleRss / bareRss });
  row("RSS after load (MB)", rssAfterLoad, "MB", "idle", idleRss, undefined);
  row("client works.get (ms)", namedMs, "ms", "raw fetch GET", rawMs, 1.05);
  // Development's cost relative to production: production req/s over development req/s.
  row(
    `${get} development (req/s)`,
    rps(`${get} development`),
    "req/s",
    "production",
    rps(`${get} workapi`),
    1.3,
    {
      ratio: rps(`${get} workapi`) / rps(`${get} development`),
    },
  );
  // Goals on the figure itself rather than the ratio (cold start, idle RSS) compare `ours` with the goal.
  for (const r of rows) {
    if (r.measure.startsWith("cold start") || r.measure.startsWith("idle RSS")) r.pass = r.ours <= r.goal;
  }

  meta.loadAverageAfter = loadavg().map((n) => Number(n.toFixed(2)));
  meta.seconds = Math.round((performance.now() - started) / 1000);
  console.log(formatTable(rows, { ...meta, ...knobs }));
  console.log(formatClientCpu(raw.loadGeneratorCpu));
  if (profile) console.log(`\n${formatSummary(profile)}`);
  writeFileSync(flags.json, `${JSON.stringify({ meta, rows, raw }, null, 2)}\n`);
  console.log(`\nfigures written to ${flags.json}, the table to ${writeResults({ meta, rows, raw })}`);
} catch (error) {
  process.exitCode = 1;
  console.error(`bench failed: ${error.stack ?? error}`);
} finally {
  for (const proc of [...children]) await stop(proc).catch(() => {});
  await pgDatabase?.drop().catch(() => {});
  if (process.exitCode) log(`logs kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
