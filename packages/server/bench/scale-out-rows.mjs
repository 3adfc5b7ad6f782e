// The scale-out factor for `pnpm bench` (run.mjs), and the redis-server of a bench's own (also used by
// scale-out.mjs): on the run's seeded data, one server process against `serve --workers 2`, both with that
// Redis for their rate limits, driven with the same works.get load in turns (repetitions interleaved, medians
// of the per-repetition ratios). On a 2-core machine the load generator shares the cores with the workers.
import { execFile, spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { getJson, median } from "./measure.mjs";

const run = promisify(execFile);

/** Whether redis-server can be started here. */
export function haveRedisServer() {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/**
 * Starts a redis-server of the bench's own on a free port (no persistence; never the machine's shared one)
 * and waits until it answers PING (fails after 10 s). Returns the process and its URL.
 */
export async function startOwnRedis({ start, freePort }) {
  const port = await freePort();
  const redis = start("redis", "redis-server", [
    ...["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
  ]);
  const t = performance.now();
  for (;;) {
    if (redis.exited) throw new Error("redis-server exited at start (see redis.log)");
    const answer = await run("redis-cli", ["-p", String(port), "ping"]).catch(() => ({ stdout: "" }));
    if (answer.stdout.trim() === "PONG") break;
    if (performance.now() - t > 10_000) throw new Error("redis-server did not answer PING within 10 s");
    await sleep(50);
  }
  return { redis, port, url: `redis://127.0.0.1:${port}` };
}

/**
 * works.get per second on one process and on `--workers 2` for each store of `stores` ({ name, dataDir,
 * databaseUrl?, token }), with `redisUrl`. Returns { [store name]: { one, workers, ratio } } (req/s medians,
 * ratio the median of the per-repetition ratios).
 */
export async function measureScaleOut({ helpers, cli, stores, redisUrl, load, repetitions, warmUp, log }) {
  const { startServer, stop, ready, serverEnv } = helpers;
  const results = {};
  for (const store of stores) {
    const env = {
      ...serverEnv("production", store.databaseUrl),
      REDIS_URL: redisUrl,
      WORKAPI_REDIS_PREFIX: `workapi-bench-${store.name}:`,
    };
    const servers = {};
    for (const workers of [1, 2]) {
      // Far above what a run sends: the bench measures serving, not the limiter's 429s.
      const args = ["--data-dir", store.dataDir, "--rate-limit", "1000000000", "--workers", String(workers)];
      const proc = await startServer(env, { name: `scale-out-${store.name}-${workers}`, args, entry: cli });
      await ready(proc, `${proc.url}/health`);
      servers[workers] = proc;
    }
    const headers = { authorization: `Bearer ${store.token}` };
    const [work] = (await getJson(`${servers[1].url}/works.list?limit=1&type=issue`, headers)).works;
    const path = `/works.get?id=${encodeURIComponent(work.id)}`;
    const target = (workers) => ({
      url: servers[workers].url + path,
      headers,
      label: `works.get ${store.name} --workers ${workers}`,
    });
    log(`scale-out on ${store.name}: one process against --workers 2`);
    for (const workers of [1, 2]) await load(target(workers), { duration: warmUp });
    const runs = { 1: [], 2: [] };
    for (let rep = 0; rep < repetitions; rep++) {
      for (const workers of [1, 2]) runs[workers].push((await load(target(workers))).rps);
    }
    for (const proc of Object.values(servers)) await stop(proc);
    results[store.name] = {
      one: median(runs[1]),
      workers: median(runs[2]),
      ratio: median(runs[2].map((rps, i) => rps / runs[1][i])),
    };
  }
  return results;
}

/**
 * The rows `pnpm bench` prints for the scale-out factor (`row(...)` arguments): works.get on `--workers 2`
 * against one process, for SQLite and (when the run has it) PostgreSQL, with a redis-server of the run's own.
 * None without redis-server.
 */
export async function scaleOutRows({ helpers, cli, stores, load, repetitions, warmUp, log }) {
  if (!haveRedisServer()) {
    log("redis-server is not installed: no scale-out rows (--workers needs Redis)");
    return [];
  }
  const { redis, url } = await startOwnRedis(helpers);
  try {
    const results = await measureScaleOut({
      helpers,
      cli,
      stores,
      redisUrl: url,
      load,
      repetitions,
      warmUp,
      log,
    });
    return Object.entries(results).map(([name, { one, workers, ratio }]) => [
      `works.get --workers 2, ${name} (req/s)`,
      workers,
      "req/s",
      "1 process",
      one,
      undefined,
      { higher: true, ratio },
    ]);
  } finally {
    await helpers.stop(redis);
  }
}
