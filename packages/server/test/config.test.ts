// The environment variables are one table (src/config.ts VARIABLES): the configuration reads each of them, the
// command's help names them, and the README's table of settings lists them.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromEnv, DEFAULTS, type ServerConfig, VARIABLES } from "../src/config.js";

const given: Record<keyof typeof VARIABLES, [string, unknown]> = {
  port: ["7", 7],
  host: ["0.0.0.0", "0.0.0.0"],
  dataDir: ["/tmp/x", resolve("/tmp/x")],
  databaseUrl: ["postgres://db/x", "postgres://db/x"],
  redisUrl: ["redis://r", "redis://r"],
  redisTimeoutMs: ["7", 7],
  redisPrefix: ["p:", "p:"],
  statisticsIntervalMinutes: ["7", 7],
  answerCacheMb: ["7", 7],
  workers: ["7", 7],
  bodyLimit: ["7", 7],
  rateLimitMax: ["7", 7],
  rateLimitWindowMs: ["7", 7],
  validateResponses: ["true", true],
  corsOrigins: ["https://a.example, https://b.example", ["https://a.example", "https://b.example"]],
  logLevel: ["debug", "debug"],
  headersTimeoutMs: ["7", 7],
  requestTimeoutMs: ["7", 7],
  keepAliveTimeoutMs: ["7", 7],
  idleTimeoutMs: ["7", 7],
  maxConnectionsPerAddress: ["7", 7],
  discardTimeoutMs: ["7", 7],
  shutdownTimeoutMs: ["7", 7],
  maxEventLoopDelayMs: ["7", 7],
  maxWaitMs: ["7", 7],
  sheddingRetryAfterS: ["7", 7],
  adminToken: ["a-token-of-thirty-two-characters", "a-token-of-thirty-two-characters"],
  seed: ["1", true],
};

describe("the environment variables", () => {
  it("each set the setting they are listed for", () => {
    for (const [key, { env }] of Object.entries(VARIABLES) as Array<
      [keyof typeof VARIABLES, { env: string }]
    >) {
      const [text, value] = given[key];
      const config = configFromEnv({ NODE_ENV: "production", [env]: text });
      expect(config[key as keyof ServerConfig], env).toEqual(value);
    }
  });

  it("leave the defaults when unset", () => {
    const config = configFromEnv({ NODE_ENV: "production" });
    expect(config).toMatchObject({
      ...DEFAULTS,
      dataDir: resolve(DEFAULTS.dataDir),
      validateResponses: false,
    });
  });

  it("are all in the README's table of settings", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const missing = Object.values(VARIABLES)
      .map(({ env }) => env)
      .filter((env) => !readme.includes(`| \`${env}\` |`));
    expect(missing).toEqual([]);
  });
});

describe("the first start's settings", () => {
  it("take an admin token of 32 characters or more, and refuse a shorter one without repeating it", () => {
    const enough = "k".repeat(32);
    expect(configFromEnv({ WORKAPI_ADMIN_TOKEN: enough }).adminToken).toBe(enough);
    expect(configFromEnv({}).adminToken).toBeUndefined();
    expect(configFromEnv({ WORKAPI_ADMIN_TOKEN: "" }).adminToken).toBeUndefined();
    expect(() => configFromEnv({ WORKAPI_ADMIN_TOKEN: "k".repeat(31) })).toThrow(
      /^WORKAPI_ADMIN_TOKEN is 31 characters long, too short to be a secret: give at least 32 \(/,
    );
    expect(() => configFromEnv({ WORKAPI_ADMIN_TOKEN: `${"k".repeat(32)}\n` })).toThrow(/printable ASCII/);
  });

  it("seed on 1 or true, not on 0, false or unset, and refuse anything else", () => {
    expect(configFromEnv({ WORKAPI_SEED: "1" }).seed).toBe(true);
    expect(configFromEnv({ WORKAPI_SEED: "true" }).seed).toBe(true);
    expect(configFromEnv({ WORKAPI_SEED: "0" }).seed).toBe(false);
    expect(configFromEnv({ WORKAPI_SEED: "false" }).seed).toBe(false);
    expect(configFromEnv({}).seed).toBe(false);
    expect(() => configFromEnv({ WORKAPI_SEED: "yes" })).toThrow(
      "WORKAPI_SEED must be 1 or 0 (true or false), not 'yes'",
    );
  });
});
