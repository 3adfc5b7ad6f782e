// The settings are one table (src/settings.ts VARIABLES): the configuration reads each of them from it, the
// command's flags are made from it, the README's table of settings is generated from it, and no other module
// reads the environment.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromEnv, configFromFlags, DEFAULTS, type ServerConfig, VARIABLES } from "../src/config.js";
import { readmeRows } from "../src/settings.js";

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
  maxSandboxes: ["7", 7],
  sandboxTtlSeconds: ["7", 7],
  sandboxMaxDelayMs: ["7", 7],
  sandboxJournalMax: ["7", 7],
  sandboxSweepSeconds: ["7", 7],
  sandboxSpares: ["3", 3],
};

const src = new URL("../src/", import.meta.url).pathname;

/** Every TypeScript file under src/, as a path from there, with its text. */
function sources(dir = src): Array<[string, string]> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): Array<[string, string]> => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [[relative(src, path), readFileSync(path, "utf8")]] : [];
  });
}

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

  it("refuse a whole-number setting that is not one, naming the variable", () => {
    for (const [key, { env }] of Object.entries(VARIABLES)) {
      if (typeof given[key as keyof typeof VARIABLES][1] !== "number") continue;
      expect(() => configFromEnv({ [env]: "-1" }), env).toThrow(`${env} must be a whole number, not '-1'`);
      expect(() => configFromEnv({ [env]: "x" }), env).toThrow(`${env} must be a whole number, not 'x'`);
    }
  });

  it("are read by src/config.ts alone: no other module reads process.env", () => {
    const reading = sources()
      .filter(([file, text]) => file !== "config.ts" && /process\.env/.test(text))
      .map(([file]) => file);
    expect(reading).toEqual([]);
  });

  it("are each in the table, but NODE_ENV (validateResponses' default) and the workers' slot", () => {
    const named = new Set<string>(Object.values(VARIABLES).map(({ env }) => env));
    const read = sources().flatMap(([, text]) =>
      [...text.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[["']([A-Z][A-Z0-9_]*)["']\])/g)].map(
        (match) => match[1] ?? match[2],
      ),
    );
    const variables = sources().flatMap(([, text]) =>
      [...text.matchAll(/"((?:WORKAPI|DATABASE|REDIS|LOG)_[A-Z0-9_]+)"/g)].map((match) => match[1]),
    );
    const unlisted = [...new Set([...read, ...variables])].filter((env) => env && !named.has(env));
    expect(unlisted.sort()).toEqual(["NODE_ENV", "WORKAPI_WORKER_SLOT"]);
  });

  it("are all in the README's table of settings", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const missing = Object.values(VARIABLES)
      .map(({ env }) => env)
      .filter((env) => !readme.includes(`| \`${env}\` |`));
    expect(missing).toEqual([]);
  });
});

describe("the README's table of settings", () => {
  it("is the table's rows, between its markers (`pnpm generate` writes them)", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const region = /<!-- settings:start -->\n([\s\S]*?)<!-- settings:end -->/.exec(readme)?.[1] ?? "";
    expect(region.trimEnd().split("\n").slice(2)).toEqual(readmeRows());
  });
});

describe("the command's flags", () => {
  it("win over the environment, read as their variable is (the window's flag in seconds)", () => {
    const env = { NODE_ENV: "production", PORT: "1", WORKAPI_RATE_LIMIT_WINDOW_MS: "5" };
    expect(configFromFlags({}, env)).toMatchObject({ port: 1, rateLimitWindowMs: 5 });
    const config = configFromFlags(
      { port: 2, rateLimitWindow: 3, seed: true, corsOrigins: "https://a.example", dataDir: "/tmp/d" },
      env,
    );
    expect(config).toMatchObject({
      port: 2,
      rateLimitWindowMs: 3000,
      seed: true,
      corsOrigins: ["https://a.example"],
      dataDir: resolve("/tmp/d"),
    });
  });

  it("are the table's: every flag is some setting's, named once", () => {
    const flags = Object.values(VARIABLES).flatMap((setting) =>
      "flag" in setting ? [setting.flag.name] : [],
    );
    expect(new Set(flags).size).toBe(flags.length);
    expect(flags).toContain("--rate-limit-window");
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
