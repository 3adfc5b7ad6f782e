// Throughput with a hung Redis against Redis up: starts the built server (SQLite, a fresh data directory) with
// a redis-server of its own on a free port (no persistence; never the machine's shared Redis), then, in each
// repetition, drives an authenticated read (GET /tags.list) with autocannon while Redis is up, while it is
// stopped with SIGSTOP (process alive, socket open, no answer), and after SIGCONT once /health says the
// circuit closed again. Prints each repetition, the medians, the ratio stopped/up (goal >= 0.8x) and the keys
// Redis holds (all under the configured prefix).
//
//   pnpm --filter @workapi/server bench:redis-fault [--connections n] [--duration s] [--repetitions n]
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { childProcesses } from "./children.mjs";
import { getJson, load, median } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = resolve(here, "..");
const cli = join(serverDir, "dist/cli.js");
const PREFIX = "workapi-bench-rate-limit:";

const { values: flags } = parseArgs({
  options: {
    connections: { type: "string", default: "10" },
    duration: { type: "string", default: "5" },
    repetitions: { type: "string", default: "3" },
  },
});
const connections = Number(flags.connections);
const duration = Number(flags.duration);
const repetitions = Number(flags.repetitions);
for (const [name, value] of Object.entries({ connections, duration, repetitions })) {
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`--${name} must be a positive whole number`);
}
if (spawnSync("redis-server", ["--version"]).status !== 0) {
  console.error("redis-server is not installed (Debian: apt-get install redis-server)");
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "workapi-redis-fault-"));
const dataDir = join(work, "data");
const { freePort, serverEnv, start, startServer, stop, ready } = childProcesses({ work, serverDir });

const redisPort = await freePort();
const redis = start("redis", "redis-server", [
  ...["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
]);
/** Sends `signal` to our own redis-server only (never a broad name). */
const signalRedis = (signal) => {
  if (!redis.exited) process.kill(redis.child.pid, signal);
};
// A stopped Redis would outlive a failed run: resume it whatever happens, so that stop() can end it.
process.once("exit", () => signalRedis("SIGCONT"));

const env = {
  ...serverEnv("production"),
  WORKAPI_DATA_DIR: dataDir,
  WORKAPI_RATE_LIMIT_MAX: "1000000000",
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  WORKAPI_REDIS_PREFIX: PREFIX,
};
const run = promisify(execFile);
const tokenOf = async (scopes) =>
  (await run(process.execPath, [cli, "token", "create", "--scopes", scopes], { env })).stdout.trim();

// Tokens first: the first `token create` makes the database, before the server opens it.
const writer = await tokenOf("tag:all");
const reader = await tokenOf("tag:read");
const server = await startServer(env, { logLevel: "warn" });
const url = server.url;
const figures = { up: [], stopped: [], resumed: [] };
let failed = false;
try {
  await ready(server, `${url}/health`);
  for (let i = 0; i < 20; i++) {
    const answer = await fetch(`${url}/tags.create`, {
      method: "POST",
      headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `bench-${i}` }),
    });
    if (answer.status !== 201 && answer.status !== 200) throw new Error(`tags.create: ${answer.status}`);
  }
  const target = {
    label: "tags.list",
    url: `${url}/tags.list`,
    headers: { authorization: `Bearer ${reader}` },
  };
  const health = () => getJson(`${url}/health`);
  await load(target, { connections, duration: 2 }); // warm-up

  for (let repetition = 1; repetition <= repetitions; repetition++) {
    const up = await load(target, { connections, duration });
    signalRedis("SIGSTOP");
    const stopped = await load(target, { connections, duration });
    const whileStopped = await health();
    signalRedis("SIGCONT");
    const closedAfter = await closed(health);
    const resumed = await load(target, { connections, duration });
    figures.up.push(up.rps);
    figures.stopped.push(stopped.rps);
    figures.resumed.push(resumed.rps);
    console.log(
      `repetition ${repetition}: up ${fmt(up)}, stopped ${fmt(stopped)} (/health: redis ${whileStopped.redis}), ` +
        `circuit closed ${closedAfter} ms after SIGCONT, resumed ${fmt(resumed)}`,
    );
  }
  const [up, stopped, resumed] = [figures.up, figures.stopped, figures.resumed].map(median);
  console.log(`\nmedians of ${repetitions} (${connections} connections, ${duration} s each):`);
  console.log(`  Redis up:       ${Math.round(up)} req/s`);
  console.log(`  Redis stopped:  ${Math.round(stopped)} req/s`);
  console.log(`  Redis resumed:  ${Math.round(resumed)} req/s`);
  console.log(
    `  stopped / up:   ${(stopped / up).toFixed(2)}x (goal >= 0.80x: ${stopped / up >= 0.8 ? "pass" : "FAIL"})`,
  );
  const keys = (await run("redis-cli", ["-p", String(redisPort), "--scan"])).stdout.trim().split("\n");
  const outside = keys.filter((key) => key && !key.startsWith(PREFIX));
  console.log(
    `  keys in Redis:  ${keys.length}, ${outside.length} outside ${PREFIX} (${keys.slice(0, 2).join(", ")})`,
  );
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`logs kept in ${work}`);
} finally {
  signalRedis("SIGCONT");
  await stop(server);
  await stop(redis);
  if (!failed) rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

function fmt(result) {
  return `${Math.round(result.rps)} req/s (p99 ${result.p99} ms)`;
}

/** Milliseconds until /health says Redis is up again (fails after 10 s). */
async function closed(health) {
  const started = Date.now();
  while ((await health()).redis !== "up") {
    if (Date.now() - started > 10_000) throw new Error("the circuit did not close within 10 s of SIGCONT");
    await sleep(50);
  }
  return Date.now() - started;
}
