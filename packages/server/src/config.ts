// Server configuration: flags win over environment variables, which win over the defaults.
import { resolve } from "node:path";

export interface ServerConfig {
  port: number;
  host: string;
  /** Directory of the embedded database and the first-start admin token. */
  dataDir: string;
  /** PostgreSQL URL; the embedded SQLite database is used when unset. */
  databaseUrl?: string;
  /** Redis URL; rate limits are shared through it when set, in memory otherwise. */
  redisUrl?: string;
  /** The longest wait for one Redis command; past it the request is counted in the process. */
  redisTimeoutMs: number;
  /** The prefix of the rate limits' keys in Redis. */
  redisPrefix: string;
  /** How often the query planner's statistics are brought up to date (also once at start); 0: at start only. */
  statisticsIntervalMinutes: number;
  /** Largest request body in bytes. */
  bodyLimit: number;
  /** Requests per token (or per client address, without one) in each window. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Validate every answer against the contract and fail loudly on a mismatch (development and tests). */
  validateResponses: boolean;
  /** Origins allowed to call from a browser: `*`, a list, or none (CORS off). */
  corsOrigins: string[];
  logLevel: string;
}

export const DEFAULTS = {
  port: 8080,
  host: "0.0.0.0",
  dataDir: "./.workapi",
  bodyLimit: 1024 * 1024,
  rateLimitMax: 1000,
  rateLimitWindowMs: 5 * 60 * 1000,
  redisTimeoutMs: 50,
  redisPrefix: "workapi-rate-limit:",
  statisticsIntervalMinutes: 60,
  logLevel: "info",
} as const;

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a whole number, not '${value}'`);
  }
  return parsed;
}

export function configFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const mode = env.NODE_ENV ?? "production";
  const config: ServerConfig = {
    port: integer("PORT", env.PORT, DEFAULTS.port),
    host: env.HOST || DEFAULTS.host,
    dataDir: resolve(env.WORKAPI_DATA_DIR || DEFAULTS.dataDir),
    bodyLimit: integer("WORKAPI_BODY_LIMIT", env.WORKAPI_BODY_LIMIT, DEFAULTS.bodyLimit),
    rateLimitMax: integer("WORKAPI_RATE_LIMIT_MAX", env.WORKAPI_RATE_LIMIT_MAX, DEFAULTS.rateLimitMax),
    rateLimitWindowMs: integer(
      "WORKAPI_RATE_LIMIT_WINDOW_MS",
      env.WORKAPI_RATE_LIMIT_WINDOW_MS,
      DEFAULTS.rateLimitWindowMs,
    ),
    redisTimeoutMs: integer(
      "WORKAPI_REDIS_TIMEOUT_MS",
      env.WORKAPI_REDIS_TIMEOUT_MS,
      DEFAULTS.redisTimeoutMs,
    ),
    redisPrefix: env.WORKAPI_REDIS_PREFIX || DEFAULTS.redisPrefix,
    statisticsIntervalMinutes: integer(
      "WORKAPI_STATISTICS_INTERVAL_MINUTES",
      env.WORKAPI_STATISTICS_INTERVAL_MINUTES,
      DEFAULTS.statisticsIntervalMinutes,
    ),
    validateResponses:
      env.WORKAPI_VALIDATE_RESPONSES !== undefined
        ? env.WORKAPI_VALIDATE_RESPONSES === "true"
        : mode === "development" || mode === "test",
    corsOrigins: (env.WORKAPI_CORS_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || DEFAULTS.logLevel,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
  };
  return { ...config, ...overrides };
}
