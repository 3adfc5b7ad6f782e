// Server configuration: flags win over environment variables, which win over the defaults. VARIABLES is the one
// list of the environment variables: this module reads them by it, and the CLI's help (./cli.ts) names them.
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
  /** Server processes sharing the port (./cluster.ts); 1: this process serves alone. */
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
  /** The wait (ms) past which a queue that stands is an overload: requests are refused while it lasts. */
  maxWaitMs: number;
  /** The Retry-After (seconds) of a shed request. */
  sheddingRetryAfterS: number;
  /** The first start's admin token, when the operator gives it; otherwise that start makes a random one. */
  adminToken?: string;
  /** On first start (an empty database), also load the demo data set. */
  seed: boolean;
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
  maxWaitMs: 1000,
  sheddingRetryAfterS: 2,
  seed: false,
} as const;

/** The shortest admin token the environment may give: 32 characters, 128 bits as hexadecimal digits. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

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
  maxWaitMs: "WORKAPI_MAX_WAIT_MS",
  sheddingRetryAfterS: "WORKAPI_SHEDDING_RETRY_AFTER_S",
} as const;

/** A setting the environment gives: its variable, and what it sets (the CLI's help of the flag beside it). */
export interface Variable {
  env: string;
  help: string;
}

const whole = (env: string): Variable => ({ env, help: "" });

/** Every environment variable the server reads, by the setting it gives. */
export const VARIABLES = {
  port: { env: "PORT", help: "port to listen on" },
  host: { env: "HOST", help: "address to listen on" },
  dataDir: { env: "WORKAPI_DATA_DIR", help: "embedded database directory" },
  databaseUrl: { env: "DATABASE_URL", help: "PostgreSQL URL instead of the embedded database" },
  redisUrl: { env: "REDIS_URL", help: "share rate limits through Redis" },
  redisTimeoutMs: { env: "WORKAPI_REDIS_TIMEOUT_MS", help: "the longest wait for one Redis command (ms)" },
  redisPrefix: { env: "WORKAPI_REDIS_PREFIX", help: "the prefix of the rate limits' keys in Redis" },
  statisticsIntervalMinutes: {
    env: "WORKAPI_STATISTICS_INTERVAL_MINUTES",
    help: "minutes between updates of the query planner's statistics",
  },
  answerCacheMb: { env: "WORKAPI_ANSWER_CACHE_MB", help: "megabytes the kept answers of reads may take" },
  workers: {
    env: "WORKAPI_WORKERS",
    help: "server processes sharing the port, with Redis for the rate limits",
  },
  bodyLimit: { env: "WORKAPI_BODY_LIMIT", help: "largest request body" },
  rateLimitMax: { env: "WORKAPI_RATE_LIMIT_MAX", help: "requests per token per window" },
  rateLimitWindowMs: { env: "WORKAPI_RATE_LIMIT_WINDOW_MS", help: "rate limit window" },
  validateResponses: {
    env: "WORKAPI_VALIDATE_RESPONSES",
    help: "validate every answer against the contract (true or false)",
  },
  corsOrigins: {
    env: "WORKAPI_CORS_ORIGINS",
    help: "comma-separated origins allowed from browsers, or *",
  },
  logLevel: { env: "LOG_LEVEL", help: "trace, debug, info, warn, error or silent" },
  adminToken: {
    env: "WORKAPI_ADMIN_TOKEN",
    help: `the first start's admin token (at least ${MIN_ADMIN_TOKEN_LENGTH} characters)`,
  },
  seed: { env: "WORKAPI_SEED", help: "on first start, also load the demo data set (1 or 0)" },
  ...(Object.fromEntries(
    Object.entries(WHOLE_NUMBER_SETTINGS).map(([key, env]) => [key, whole(env)]),
  ) as Record<keyof typeof WHOLE_NUMBER_SETTINGS, Variable>),
} as const satisfies Record<string, Variable>;

/** The settings given as whole numbers. */
type NumberSetting = {
  [K in keyof typeof DEFAULTS]: (typeof DEFAULTS)[K] extends number ? K : never;
}[keyof typeof DEFAULTS];

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`${name} must be a whole number, not '${value}'`);
  }
  return parsed;
}

/** A yes-or-no setting: 1 or true, 0 or false; unset or empty: `fallback`. */
function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === "") return fallback;
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  throw new Error(`${name} must be 1 or 0 (true or false), not '${value}'`);
}

/**
 * The admin token the environment gives, refused when it could not be a secret: shorter than
 * MIN_ADMIN_TOKEN_LENGTH, or holding white space or characters a header cannot carry. The message never
 * repeats the value.
 */
function adminToken(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new Error(
      `${name} must be printable ASCII without spaces (it is sent as 'Authorization: Bearer <token>')`,
    );
  }
  if (value.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(
      `${name} is ${value.length} characters long, too short to be a secret: give at least ` +
        `${MIN_ADMIN_TOKEN_LENGTH} (for instance 'openssl rand -hex 32')`,
    );
  }
  return value;
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
  const text = (key: keyof typeof VARIABLES) => env[VARIABLES[key].env];
  const number = (key: NumberSetting) => integer(VARIABLES[key].env, text(key), DEFAULTS[key]);
  const validate = text("validateResponses");
  const config: ServerConfig = {
    port: number("port"),
    host: text("host") || DEFAULTS.host,
    dataDir: resolve(text("dataDir") || DEFAULTS.dataDir),
    workers: number("workers"),
    bodyLimit: number("bodyLimit"),
    rateLimitMax: number("rateLimitMax"),
    rateLimitWindowMs: number("rateLimitWindowMs"),
    redisTimeoutMs: number("redisTimeoutMs"),
    redisPrefix: text("redisPrefix") || DEFAULTS.redisPrefix,
    statisticsIntervalMinutes: number("statisticsIntervalMinutes"),
    answerCacheMb: number("answerCacheMb"),
    validateResponses:
      validate !== undefined ? validate === "true" : mode === "development" || mode === "test",
    corsOrigins: (text("corsOrigins") ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    logLevel: text("logLevel") || DEFAULTS.logLevel,
    seed: flag(VARIABLES.seed.env, text("seed"), DEFAULTS.seed),
    ...waitBounds(env),
    ...(text("databaseUrl") ? { databaseUrl: text("databaseUrl") } : {}),
    ...(text("redisUrl") ? { redisUrl: text("redisUrl") } : {}),
  };
  const token = adminToken(VARIABLES.adminToken.env, text("adminToken"));
  if (token !== undefined) config.adminToken = token;
  const merged = { ...config, ...overrides };
  if (merged.workers < 1) throw new Error(`the number of workers must be at least 1, not ${merged.workers}`);
  return merged;
}
