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
  /** Megabytes the kept answers of reads may take (a SQLite file or PostgreSQL; see core/answers.ts); 0: none kept. */
  answerCacheMb: number;
  /** Server processes sharing the port (./workers.ts); 1: this process serves alone. */
  workers: number;
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
  /** Time a client has to send its request line and headers (408 after it). */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, body included (408 after it). */
  requestTimeoutMs: number;
  /** How long a kept-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
  /** How long a connection may stay silent both ways (a stalled upload, an answer nobody reads) before it is closed. */
  idleTimeoutMs: number;
  /** Connections one client address may hold at once; 0: no limit. */
  maxConnectionsPerAddress: number;
  /** How long a body refused before its end (a 413) is still read and discarded, so the caller reads the answer. */
  discardTimeoutMs: number;
  /** How long a shutdown waits for requests in flight before it closes their connections. */
  shutdownTimeoutMs: number;
  /**
   * The wait (ms) load shedding keeps requests under once they queue (see http/shedding.ts); 0: never shed.
   */
  maxEventLoopDelayMs: number;
  /** The Retry-After (seconds) of a shed request. */
  sheddingRetryAfterS: number;
}

export const DEFAULTS = {
  port: 8080,
  // A stand-in for development answers this machine only; `--host 0.0.0.0` (or HOST) listens everywhere.
  host: "127.0.0.1",
  dataDir: "./.workapi",
  workers: 1,
  bodyLimit: 1024 * 1024,
  rateLimitMax: 1000,
  rateLimitWindowMs: 5 * 60 * 1000,
  redisTimeoutMs: 50,
  redisPrefix: "workapi-rate-limit:",
  statisticsIntervalMinutes: 60,
  answerCacheMb: 64,
  logLevel: "info",
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  idleTimeoutMs: 120_000,
  maxConnectionsPerAddress: 256,
  discardTimeoutMs: 5_000,
  shutdownTimeoutMs: 10_000,
  maxEventLoopDelayMs: 20,
  sheddingRetryAfterS: 2,
} as const;

/** The settings read from `WORKAPI_<NAME>` as whole numbers, with their defaults. */
const WHOLE_NUMBER_SETTINGS = {
  headersTimeoutMs: "WORKAPI_HEADERS_TIMEOUT_MS",
  requestTimeoutMs: "WORKAPI_REQUEST_TIMEOUT_MS",
  keepAliveTimeoutMs: "WORKAPI_KEEP_ALIVE_TIMEOUT_MS",
  idleTimeoutMs: "WORKAPI_IDLE_TIMEOUT_MS",
  maxConnectionsPerAddress: "WORKAPI_MAX_CONNECTIONS_PER_ADDRESS",
  discardTimeoutMs: "WORKAPI_DISCARD_TIMEOUT_MS",
  shutdownTimeoutMs: "WORKAPI_SHUTDOWN_TIMEOUT_MS",
  maxEventLoopDelayMs: "WORKAPI_MAX_EVENT_LOOP_DELAY_MS",
  sheddingRetryAfterS: "WORKAPI_SHEDDING_RETRY_AFTER_S",
} as const;

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a whole number, not '${value}'`);
  }
  return parsed;
}

/** The bounds of every wait (timeouts, the connection limit, load shedding), from the environment. */
function waitBounds(env: NodeJS.ProcessEnv) {
  const entries = Object.entries(WHOLE_NUMBER_SETTINGS).map(([key, name]) => [
    key,
    integer(name, env[name], DEFAULTS[key as keyof typeof WHOLE_NUMBER_SETTINGS]),
  ]);
  return Object.fromEntries(entries) as Record<keyof typeof WHOLE_NUMBER_SETTINGS, number>;
}

export function configFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const mode = env.NODE_ENV ?? "production";
  const config: ServerConfig = {
    port: integer("PORT", env.PORT, DEFAULTS.port),
    host: env.HOST || DEFAULTS.host,
    dataDir: resolve(env.WORKAPI_DATA_DIR || DEFAULTS.dataDir),
    workers: integer("WORKAPI_WORKERS", env.WORKAPI_WORKERS, DEFAULTS.workers),
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
    answerCacheMb: integer("WORKAPI_ANSWER_CACHE_MB", env.WORKAPI_ANSWER_CACHE_MB, DEFAULTS.answerCacheMb),
    validateResponses:
      env.WORKAPI_VALIDATE_RESPONSES !== undefined
        ? env.WORKAPI_VALIDATE_RESPONSES === "true"
        : mode === "development" || mode === "test",
    corsOrigins: (env.WORKAPI_CORS_ORIGINS ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || DEFAULTS.logLevel,
    ...waitBounds(env),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
  };
  const merged = { ...config, ...overrides };
  if (merged.workers < 1) throw new Error(`the number of workers must be at least 1, not ${merged.workers}`);
  return merged;
}
