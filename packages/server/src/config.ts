// Server configuration: flags win over environment variables, which win over the defaults. The settings are one
// table (./settings.ts VARIABLES): this module reads the environment and the flags by it, once, into a
// ServerConfig that the server hands down to whatever needs a setting. No other module reads process.env.
import { type Env, type Flag, settingsOf, type VARIABLES } from "./settings.js";

export { MIN_ADMIN_TOKEN_LENGTH, VARIABLES } from "./settings.js";

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
  /** Live sandboxes the server holds at most, in all; one more is 409 `conflict`. */
  maxSandboxes: number;
  /** Seconds a sandbox lives when `sandboxes.create` does not say. */
  sandboxTtlSeconds: number;
  /** The longest `Prefer: delay=<ms>` waits; a longer one waits this long. */
  sandboxMaxDelayMs: number;
  /** Requests each sandbox's journal keeps (the latest). */
  sandboxJournalMax: number;
  /** How often each server process deletes the sandboxes past their expiry; 0: never. */
  sandboxSweepSeconds: number;
  /** Seeded sandboxes kept made ahead, once the demo data set's template exists; 0: none. */
  sandboxSpares: number;
}

// The table has a row for each setting and nothing else, and each row reads the setting's type.
type Rows = typeof VARIABLES;
type Read<K extends keyof Rows> = Exclude<ReturnType<Rows[K]["parse"]>, undefined>;
const _sameKeys: [keyof Rows, keyof ServerConfig] extends [keyof ServerConfig, keyof Rows] ? true : never =
  true;
const _sameTypes: { [K in keyof Rows]: Read<K> } extends Required<ServerConfig> ? true : never = true;
void _sameKeys;
void _sameTypes;

/** The settings that have a default, at it. */
export const DEFAULTS = Object.fromEntries(
  settingsOf()
    .filter(([, setting]) => setting.default !== undefined)
    .map(([key, setting]) => [key, setting.default]),
) as { [K in keyof Rows as Rows[K]["default"] extends undefined ? never : K]: Rows[K]["default"] };

/** The settings given to the sandboxes' operations and routes. */
const SANDBOX_SETTINGS = [
  "maxSandboxes",
  "sandboxTtlSeconds",
  "sandboxMaxDelayMs",
  "sandboxJournalMax",
  "sandboxSweepSeconds",
  "sandboxSpares",
] as const satisfies ReadonlyArray<keyof ServerConfig>;
export type SandboxSettings = Pick<ServerConfig, (typeof SANDBOX_SETTINGS)[number]>;

/** The sandboxes' settings of `config`, on their own (sent to the write thread). */
export function sandboxSettingsOf(config: SandboxSettings): SandboxSettings {
  return Object.fromEntries(SANDBOX_SETTINGS.map((key) => [key, config[key]])) as SandboxSettings;
}

/** The configuration `env` gives (each setting read by its row of the table), with `overrides` over it. */
export function configFromEnv(env: Env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const read: Partial<Record<keyof ServerConfig, unknown>> = {};
  for (const [key, setting] of settingsOf()) {
    const value = setting.parse(env[setting.env], setting.env, env);
    if (value !== undefined) read[key] = value;
  }
  const merged = { ...(read as ServerConfig), ...overrides };
  if (merged.workers < 1) throw new Error(`the number of workers must be at least 1, not ${merged.workers}`);
  return merged;
}

/** The property commander gives a flag's value under: `--rate-limit-window` is `rateLimitWindow`. */
export function flagProperty(flag: Flag): string {
  return flag.name.replace(/^--/, "").replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The configuration of a command: its flags (by the property commander gives each) over the environment
 * (the process's, unless given). A flag's value is read as its variable's text would be, so a flag and its
 * variable take the same values.
 */
export function configFromFlags(flags: Record<string, unknown>, env: Env = process.env): ServerConfig {
  const given: Env = { ...env };
  for (const [, setting] of settingsOf()) {
    if (!setting.flag) continue;
    const value = flags[flagProperty(setting.flag)];
    if (value === undefined || value === false) continue;
    if (value === true) given[setting.env] = "1";
    else if (typeof value === "number") given[setting.env] = String(value * (setting.flag.scale ?? 1));
    else given[setting.env] = String(value);
  }
  return configFromEnv(given);
}

/** The slot a worker of `serve --workers N` was given by its primary (./cluster.ts); undefined elsewhere. */
export const WORKER_SLOT = "WORKAPI_WORKER_SLOT";
export function workerSlot(env: Env = process.env): string | undefined {
  return env[WORKER_SLOT];
}
