// Redis is a helper, never a dependency of an answer: against a redis-server of its own (a free port, never
// the machine's shared one), the rate limits' keys are under the configured prefix; a Redis stopped with
// SIGSTOP (socket open, no answer) neither fails nor slows requests, /health and one log line say the circuit
// is open, and SIGCONT closes it again; a Redis killed outright is survived, and a new one on the same port is
// picked up.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "./harness.js";

const PREFIX = "faults-test:";
/** Each request must be answered within this, Redis or not, on a busy machine. */
const FAST_MS = 500;

const haveRedis = spawnSync("redis-server", ["--version"]).status === 0;
if (!haveRedis) console.warn("redis-server is not installed: the Redis fault tests are skipped");

/** A redis-server of the test's own on `port`, without persistence. */
class OwnRedis {
  private process: ChildProcess | undefined;
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    this.process = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await this.ping();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(50);
      }
    }
  }

  signal(signal: NodeJS.Signals): void {
    if (this.process?.pid && this.running()) process.kill(this.process.pid, signal);
  }

  running(): boolean {
    return Boolean(this.process && this.process.exitCode === null && this.process.signalCode === null);
  }

  async kill(): Promise<void> {
    const stopping = this.process;
    if (!stopping || !this.running()) return;
    const exited = new Promise((resolve) => stopping.once("exit", resolve));
    stopping.kill("SIGCONT");
    stopping.kill("SIGKILL");
    await exited;
  }

  /** Runs `fn` with a fresh client (a refused connection is not retried). */
  async with<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis({ port: this.port, lazyConnect: true, retryStrategy: () => null });
    client.on("error", () => {});
    try {
      await client.connect();
      return await fn(client);
    } finally {
      client.disconnect();
    }
  }

  ping(): Promise<string> {
    return this.with((client) => client.ping());
  }

  /** The keys in this Redis, with their values. */
  counts(): Promise<Record<string, string | null>> {
    return this.with(async (client) => {
      const keys = await client.keys("*");
      const entries = await Promise.all(keys.map(async (key) => [key, await client.get(key)] as const));
      return Object.fromEntries(entries);
    });
  }
}

describe.skipIf(!haveRedis).each(databases)("Redis faults (%s)", (database) => {
  let redis: OwnRedis;
  let server: TestServer;
  let token: string;

  const call = async () => {
    const started = performance.now();
    const answer = await server.call("GET", "/tags.list", { token });
    const ms = performance.now() - started;
    expect(answer.status).toBe(200);
    return { ms, remaining: Number(answer.headers.get("x-ratelimit-remaining")) };
  };
  const health = async () => (await server.call("GET", "/health", { token: null })).body;
  const lines = (text: string) => server.logs.filter((line) => line.includes(text));
  const until = async (condition: () => Promise<boolean>, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) return false;
      await sleep(100);
    }
    return true;
  };
  /** The count of this test's token in Redis. */
  const tokenCount = async () => {
    const counts = await redis.counts();
    const key = Object.keys(counts).find((name) => name.startsWith(`${PREFIX}token:`));
    return key ? Number(counts[key]) : 0;
  };

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    server = await startTestServer(database, {
      rateLimitMax: 10_000,
      rateLimitWindowMs: 600_000,
      redisUrl: `redis://127.0.0.1:${redis.port}`,
      redisTimeoutMs: 50,
      redisPrefix: PREFIX,
    });
    token = await server.token(["tag:read"]);
  });
  afterAll(async () => {
    await server?.close();
    await redis?.kill();
  });

  it("counts in Redis under the configured prefix", async () => {
    await call();
    await call();
    const counts = await redis.counts();
    const keys = Object.keys(counts);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.startsWith(PREFIX)).toBe(true);
      expect(key).not.toContain("undefined");
    }
    expect(await tokenCount()).toBe(2);
    expect(await health()).toEqual({ status: "ok", rate_limits: "shared", redis: "up" });
  });

  it("answers fast while Redis is stopped, says so once, and shares again once it resumes", async () => {
    redis.signal("SIGSTOP");
    try {
      const times = [];
      for (let i = 0; i < 20; i++) times.push((await call()).ms);
      expect(Math.max(...times)).toBeLessThan(FAST_MS);
      expect(await health()).toEqual({ status: "ok", rate_limits: "per-process", redis: "down" });
      // The probe keeps failing while Redis is stopped, without another line.
      await sleep(2500);
      for (let i = 0; i < 5; i++) expect((await call()).ms).toBeLessThan(FAST_MS);
      expect(lines("Redis is unreachable")).toHaveLength(1);
    } finally {
      redis.signal("SIGCONT");
    }
    expect(await until(async () => (await health()).redis === "up", 5000)).toBe(true);
    expect(lines("Redis is reachable again")).toHaveLength(1);
    const before = await tokenCount();
    await call();
    expect(await tokenCount()).toBe(before + 1);
    expect(server.logs.join("\n")).not.toContain("Unhandled error event");
  });

  it("answers while Redis is killed, and picks up a new one on the same port", async () => {
    await redis.kill();
    const times = [];
    for (let i = 0; i < 10; i++) times.push((await call()).ms);
    expect(Math.max(...times)).toBeLessThan(FAST_MS);
    expect(await health()).toMatchObject({ rate_limits: "per-process", redis: "down" });
    expect(lines("Redis is unreachable")).toHaveLength(2);

    await redis.start();
    expect(await until(async () => (await health()).redis === "up", 10_000)).toBe(true);
    expect(lines("Redis is reachable again")).toHaveLength(2);
    // The new Redis kept nothing: the shared count starts over in it.
    expect((await call()).remaining).toBe(9_999);
    expect(await tokenCount()).toBe(1);
    expect(server.app.violations).toEqual([]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const listener = createServer();
    listener.once("error", reject);
    listener.listen(0, "127.0.0.1", () => {
      const { port } = listener.address() as AddressInfo;
      listener.close(() => resolve(port));
    });
  });
}
