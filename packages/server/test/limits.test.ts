// Rate limits per token, and failed authentications per client address, answered with the typed 429 and its
// headers; shared through Redis across server processes when REDIS_URL is set, counted in each process while
// Redis is unreachable.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { type AddressInfo, createServer } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness.js";

describe("rate limit in memory", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { rateLimitMax: 3, rateLimitWindowMs: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("allows the limit, then answers too_many_requests with retry_after and the headers", async () => {
    const token = await server.token(["tag:read"]);
    // The window opens with the first request, somewhere between these two instants; on a busy machine that
    // call can take more than a second, so the reset is bounded by both ends rather than by the start alone.
    const before = Date.now();
    const answers = [await server.call("GET", "/tags.list", { token })];
    const afterFirst = Date.now();
    for (let i = 1; i < 4; i++) answers.push(await server.call("GET", "/tags.list", { token }));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[0]?.headers.get("x-ratelimit-limit")).toBe("3");
    const reset = Number(answers[0]?.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(Math.floor((before + 60_000) / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil((afterFirst + 60_000) / 1000));

    const limited = answers[3];
    expect(limited?.status).toBe(429);
    expect(limited?.body).toMatchObject({ type: "too_many_requests", retry_after: expect.any(Number) });
    expect(limited?.body.retry_after).toBeGreaterThan(0);
    expect(limited?.body.retry_after).toBeLessThanOrEqual(60);
    expect(limited?.headers.get("retry-after")).toBe(String(limited?.body.retry_after));
    expect(server.app.violations).toEqual([]);
  });

  it("counts each token on its own", async () => {
    const first = await server.token(["tag:read"]);
    const second = await server.token(["tag:read"]);
    for (let i = 0; i < 3; i++) await server.call("GET", "/tags.list", { token: first });
    expect((await server.call("GET", "/tags.list", { token: first })).status).toBe(429);
    expect((await server.call("GET", "/tags.list", { token: second })).status).toBe(200);
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn("REDIS_URL is not set: the test of rate limits shared through Redis is skipped");

describe.skipIf(!redisUrl)("rate limit shared through Redis", () => {
  let a: TestServer;
  let b: TestServer;
  const dataDir = `/tmp/workapi-redis-${randomBytes(4).toString("hex")}`;
  beforeAll(async () => {
    // Two server processes' worth of apps on one database and one Redis.
    a = await startTestServer("sqlite", {
      rateLimitMax: 4,
      rateLimitWindowMs: 60_000,
      redisUrl: redisUrl as string,
      dataDir,
    });
    b = await startTestServer("sqlite", {
      rateLimitMax: 4,
      rateLimitWindowMs: 60_000,
      redisUrl: redisUrl as string,
      dataDir,
    });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("enforces one limit across servers", async () => {
    const token = await a.token(["tag:read"]);
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await a.call("GET", "/tags.list", { token })).status);
      statuses.push((await b.call("GET", "/tags.list", { token })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const redis = new Redis(redisUrl as string);
    const keys = await redis.keys("workapi-rate-limit:*");
    await redis.quit();
    expect(keys.length).toBeGreaterThan(0);
  });
});

describe("failed authentication limited per client address", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite", { rateLimitMax: 3, rateLimitWindowMs: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("counts each failure with the headers, then refuses the address before looking a token up", async () => {
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await server.call("GET", "/tags.list", { token: `wkp_guess${i}` }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[0]?.headers.get("x-ratelimit-limit")).toBe("3");
    expect(Number(answers[0]?.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(answers[3]?.body).toMatchObject({ type: "too_many_requests", retry_after: expect.any(Number) });
    expect(answers[3]?.headers.get("retry-after")).toBe(String(answers[3]?.body.retry_after));

    // Blocked: neither a guess nor a good token from this address costs a lookup until the window ends.
    const store = server.store;
    const original = store.findCredentials.bind(store);
    let lookups = 0;
    store.findCredentials = (hash) => {
      lookups++;
      return original(hash);
    };
    try {
      const guess = await server.call("GET", "/tags.list", { token: "wkp_another" });
      const good = await server.call("GET", "/tags.list");
      const none = await server.call("GET", "/tags.list", { token: null });
      expect([guess.status, good.status, none.status]).toEqual([429, 429, 429]);
      expect(guess.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(lookups).toBe(0);
    } finally {
      store.findCredentials = original;
    }
    expect(server.app.violations).toEqual([]);
  });
});

describe("rate limits when Redis is unreachable", () => {
  it("says so at start and counts in the process, answering every request", async () => {
    const closed = await freePort();
    const server = await startTestServer("sqlite", {
      rateLimitMax: 2,
      rateLimitWindowMs: 60_000,
      redisUrl: `redis://:secret@127.0.0.1:${closed}`,
    });
    try {
      const warnings = server.logs.filter((line) => line.includes("Redis is unreachable"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).not.toContain("secret");
      const token = await server.token(["tag:read"]);
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await server.call("GET", "/tags.list", { token })).status);
      expect(statuses).toEqual([200, 200, 429]);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(server.logs.filter((line) => line.includes("Redis is unreachable"))).toHaveLength(1);
      expect(server.logs.join("\n")).not.toContain("Unhandled error event");
    } finally {
      await server.close();
    }
  });
});

const redisServer = spawnSync("redis-server", ["--version"]).status === 0;
if (!redisServer) console.warn("redis-server is not installed: the test of losing Redis mid-run is skipped");

describe.skipIf(!redisServer)("rate limits when Redis goes away and comes back", () => {
  let port: number;
  let redisProcess: ChildProcess | undefined;
  const startRedis = async () => {
    redisProcess = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    // Ready once it answers a PING (a fresh client each try: a refused connect is not retried).
    const deadline = Date.now() + 10_000;
    for (;;) {
      const client = new Redis({ port, lazyConnect: true, retryStrategy: () => null });
      client.on("error", () => {});
      try {
        await client.connect();
        await client.ping();
        client.disconnect();
        return;
      } catch (error) {
        client.disconnect();
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const stopRedis = async () => {
    const stopping = redisProcess;
    if (!stopping || stopping.exitCode !== null || stopping.signalCode !== null) return;
    await new Promise((resolve) => {
      stopping.once("exit", resolve);
      stopping.kill("SIGKILL");
    });
  };
  beforeAll(async () => {
    port = await freePort();
    await startRedis();
  });
  afterAll(async () => {
    await stopRedis();
  });

  it("falls back to per-process counting with one warning, and shares again once Redis is back", async () => {
    const server = await startTestServer("sqlite", {
      rateLimitMax: 100,
      rateLimitWindowMs: 60_000,
      redisUrl: `redis://127.0.0.1:${port}`,
    });
    try {
      const token = await server.token(["tag:read"]);
      const remaining = async () => {
        const answer = await server.call("GET", "/tags.list", { token });
        expect(answer.status).toBe(200);
        return Number(answer.headers.get("x-ratelimit-remaining"));
      };
      expect(await remaining()).toBe(99);
      expect(await remaining()).toBe(98);

      await stopRedis();
      // Counted in the process from now on (its own count starts over), never a failure.
      for (let i = 0; i < 5; i++) await remaining();
      const warnings = () => server.logs.filter((line) => line.includes("Redis is unreachable"));
      expect(warnings()).toHaveLength(1);

      await startRedis();
      const deadline = Date.now() + 20_000;
      while (!server.logs.some((line) => line.includes("Redis is reachable again")) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.logs.some((line) => line.includes("Redis is reachable again"))).toBe(true);
      // The restarted Redis kept nothing: the shared count starts over in it.
      expect(await remaining()).toBe(99);
      expect(warnings()).toHaveLength(1);
      expect(server.logs.join("\n")).not.toContain("Unhandled error event");
    } finally {
      await server.close();
    }
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
