// Rate limits per token, answered with the typed 429 and its headers; shared through Redis across server
// processes when REDIS_URL is set.
import { randomBytes } from "node:crypto";
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
    const before = Math.floor(Date.now() / 1000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await server.call("GET", "/tags.list", { token }));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    expect(answers[0]?.headers.get("x-ratelimit-limit")).toBe("3");
    const reset = Number(answers[0]?.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(before + 59);
    expect(reset).toBeLessThanOrEqual(before + 61);

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
