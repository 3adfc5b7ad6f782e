// The server's settings, one table: for each, the environment variable that gives it, the `serve` flag that
// also does (if any), its default, how its text is read, and what it means (the flag's help and the README's
// settings table). ./config.ts reads the environment and the flags by it, ./cli.ts makes its flags from it,
// and `pnpm generate` writes the README's table from it (scripts/generate-settings.mjs in this package). It imports nothing
// but Node, so that generator can load it without building the package.
import { resolve } from "node:path";

/** The environment a setting is read from (the process's, or what a test gives). */
export type Env = Record<string, string | undefined>;

/** A `serve` flag: how it is spelled and what its value is. */
export interface Flag {
  /** e.g. `--port`; `short` is its one-letter alias. */
  name: string;
  short?: string;
  /** The value's placeholder in the help (`<port>`); none: a flag that is on or off. */
  value?: string;
  /** Given to every command that opens the database, not to `serve` alone. */
  everyCommand?: boolean;
  /** The variable's value is the flag's times this (the window: seconds on the flag, ms in the variable). */
  scale?: number;
}

export interface Setting<T> {
  env: string;
  flag?: Flag;
  /** What the setting is when the variable is unset; undefined: none (the setting is absent). */
  default: T | undefined;
  /** The README's default column, when it is not the default itself in backquotes. */
  shown?: string;
  /** Reads the variable `name`'s text (undefined when unset); throws with a message naming it when refused. */
  parse(text: string | undefined, name: string, env: Env): T | undefined;
  /** The flag's help: what it sets, in a few words. */
  help: string;
  /** The README's meaning column. */
  readme: string;
}

/** The shortest admin token the environment may give: 32 characters, 128 bits as hexadecimal digits. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

/** A setting of the table, whatever its value's type. */
export type AnySetting = Setting<unknown>;

const unset = (text: string | undefined): text is undefined => text === undefined || text === "";

/** A whole number (0 or more). */
function whole(fallback: number) {
  return {
    default: fallback,
    parse(text: string | undefined, name: string): number {
      if (unset(text)) return fallback;
      const parsed = Number(text);
      if (!Number.isInteger(parsed) || parsed < 0) {
        throw new Error(`${name} must be a whole number, not '${text}'`);
      }
      return parsed;
    },
  };
}

/** Text, the default when unset or empty. */
function text(fallback: string) {
  return { default: fallback, parse: (given: string | undefined) => (unset(given) ? fallback : given) };
}

/** Text with no default: the setting is absent when unset or empty. */
const optional = {
  default: undefined,
  parse: (given: string | undefined): string | undefined => (unset(given) ? undefined : given),
};

/** A yes-or-no setting: 1 or true, 0 or false; unset or empty: `fallback`. */
function yesNo(fallback: boolean) {
  return {
    default: fallback,
    parse(given: string | undefined, name: string): boolean {
      if (unset(given)) return fallback;
      if (given === "1" || given === "true") return true;
      if (given === "0" || given === "false") return false;
      throw new Error(`${name} must be 1 or 0 (true or false), not '${given}'`);
    },
  };
}

/**
 * The admin token the environment gives, refused when it could not be a secret: shorter than
 * MIN_ADMIN_TOKEN_LENGTH, or holding white space or characters a header cannot carry. The message never
 * repeats the value.
 */
function adminToken(given: string | undefined, name: string): string | undefined {
  if (unset(given)) return undefined;
  if (!/^[\x21-\x7e]+$/.test(given)) {
    throw new Error(
      `${name} must be printable ASCII without spaces (it is sent as 'Authorization: Bearer <token>')`,
    );
  }
  if (given.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(
      `${name} is ${given.length} characters long, too short to be a secret: give at least ` +
        `${MIN_ADMIN_TOKEN_LENGTH} (for instance 'openssl rand -hex 32')`,
    );
  }
  return given;
}

/** Where the embedded database is kept unless told. */
const DATA_DIR = "./.workapi";

/** Every setting, in the order of the README's table. */
export const VARIABLES = {
  port: {
    env: "PORT",
    flag: { name: "--port", short: "-p", value: "<port>" },
    ...whole(8080),
    help: "port to listen on",
    readme: "port to listen on",
  },
  host: {
    env: "HOST",
    flag: { name: "--host", value: "<host>" },
    // A stand-in for development answers this machine only; `--host 0.0.0.0` (or HOST) listens everywhere.
    ...text("127.0.0.1"),
    help: "address to listen on",
    readme: "address to listen on (`0.0.0.0` for every interface, e.g. in a container)",
  },
  dataDir: {
    env: "WORKAPI_DATA_DIR",
    flag: { name: "--data-dir", value: "<dir>", everyCommand: true },
    default: DATA_DIR,
    // A path from where the server started, kept whole so that a later change of directory moves nothing.
    parse: (given: string | undefined) => resolve(unset(given) ? DATA_DIR : given),
    help: "embedded database directory",
    readme: "the embedded database (`workapi.sqlite`, WAL mode) and `admin-token`",
  },
  adminToken: {
    env: "WORKAPI_ADMIN_TOKEN",
    default: undefined,
    shown: "unset: a random token",
    parse: adminToken,
    help: `the first start's admin token (at least ${MIN_ADMIN_TOKEN_LENGTH} characters)`,
    readme:
      "the first start's admin token, so a CI job and its service container can share it in advance: at least 32 printable characters without spaces (`openssl rand -hex 32`), refused at start otherwise. Written to `admin-token` like a random one but never printed; a later start keeps the organization's token and says so when the value is not one of this server's",
  },
  seed: {
    env: "WORKAPI_SEED",
    flag: { name: "--seed" },
    ...yesNo(false),
    shown: "`0`",
    help: "on first start, also load the demo data set (1 or 0)",
    readme:
      "`1`: on first start (an empty database), also load the demo data set, as `workapi-server seed` does; later starts load nothing",
  },
  databaseUrl: {
    env: "DATABASE_URL",
    flag: { name: "--database-url", value: "<url>", everyCommand: true },
    ...optional,
    help: "PostgreSQL URL instead of the embedded database",
    readme: "PostgreSQL (`postgres://user@host:5432/db`) instead of SQLite",
  },
  workers: {
    env: "WORKAPI_WORKERS",
    flag: { name: "--workers", value: "<n>" },
    ...whole(1),
    help: "server processes sharing the port, with Redis for the rate limits",
    readme:
      "server processes sharing the port (see Several processes below); more than 1 needs `--redis-url`",
  },
  redisUrl: {
    env: "REDIS_URL",
    flag: { name: "--redis-url", value: "<url>" },
    ...optional,
    help: "share rate limits through Redis",
    readme: "share rate limits through Redis so several processes enforce one limit",
  },
  redisTimeoutMs: {
    env: "WORKAPI_REDIS_TIMEOUT_MS",
    ...whole(50),
    help: "the longest wait for one Redis command (ms)",
    readme:
      "the longest wait for one Redis command; past it the request is counted in the process (see Rate limits below)",
  },
  redisPrefix: {
    env: "WORKAPI_REDIS_PREFIX",
    ...text("workapi-rate-limit:"),
    help: "the prefix of the rate limits' keys in Redis",
    readme:
      "the prefix of every rate-limit key in Redis (`<prefix>token:<hash>`, `<prefix>auth-failure:<address>`)",
  },
  statisticsIntervalMinutes: {
    env: "WORKAPI_STATISTICS_INTERVAL_MINUTES",
    ...whole(60),
    help: "minutes between updates of the query planner's statistics",
    readme:
      "how often the query planner's statistics are brought up to date (`PRAGMA optimize` on SQLite, `ANALYZE` on PostgreSQL, whose autovacuum also keeps them); they are also updated at every start; `0`: at start only",
  },
  answerCacheMb: {
    env: "WORKAPI_ANSWER_CACHE_MB",
    ...whole(64),
    help: "megabytes the kept answers of reads may take",
    readme:
      "on a SQLite file or PostgreSQL, the megabytes the kept answers of reads may take (see Kept answers below; the oldest kept go first, and one answer may take a sixteenth at most); `0`: nothing kept, every read runs",
  },
  bodyLimit: {
    env: "WORKAPI_BODY_LIMIT",
    flag: { name: "--body-limit", value: "<bytes>" },
    ...whole(1024 * 1024),
    help: "largest request body",
    readme: "largest request body in bytes (413 `request_entity_too_large` beyond)",
  },
  rateLimitMax: {
    env: "WORKAPI_RATE_LIMIT_MAX",
    flag: { name: "--rate-limit", value: "<n>" },
    ...whole(1000),
    help: "requests per token per window",
    readme: "requests per token in each window (429 `too_many_requests` beyond)",
  },
  rateLimitWindowMs: {
    env: "WORKAPI_RATE_LIMIT_WINDOW_MS",
    // The flag counts seconds; its variable, milliseconds.
    flag: { name: "--rate-limit-window", value: "<seconds>", scale: 1000 },
    ...whole(5 * 60 * 1000),
    shown: "5 minutes",
    help: "rate limit window",
    readme: "the window (flag in seconds, variable in milliseconds)",
  },
  corsOrigins: {
    env: "WORKAPI_CORS_ORIGINS",
    flag: { name: "--cors-origins", value: "<list>" },
    default: [] as string[],
    shown: "unset (CORS off)",
    parse: (given: string | undefined): string[] =>
      (given ?? "")
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    help: "comma-separated origins allowed from browsers, or *",
    readme: "comma-separated origins allowed to call from browsers, or `*`",
  },
  logLevel: {
    env: "LOG_LEVEL",
    flag: { name: "--log-level", value: "<level>" },
    ...text("info"),
    help: "trace, debug, info, warn, error or silent",
    readme: "pino log level (`silent` to turn logs off)",
  },
  validateResponses: {
    env: "WORKAPI_VALIDATE_RESPONSES",
    default: undefined,
    shown: "on when `NODE_ENV` is `development` or `test`",
    // Unset: on in development and tests, where a mismatch should fail loudly; production pays nothing.
    parse(given: string | undefined, _name: string, env: Env): boolean {
      if (given !== undefined) return given === "true";
      const mode = env.NODE_ENV ?? "production";
      return mode === "development" || mode === "test";
    },
    help: "validate every answer against the contract (true or false)",
    readme: "validate every answer against the contract; a mismatch answers 500 and is logged",
  },
  headersTimeoutMs: {
    env: "WORKAPI_HEADERS_TIMEOUT_MS",
    ...whole(10_000),
    help: "time a client has to send its request line and headers (ms)",
    readme:
      "time a client has to send its request line and headers; then a typed 408 (`bad_request` body) and the connection closes",
  },
  requestTimeoutMs: {
    env: "WORKAPI_REQUEST_TIMEOUT_MS",
    ...whole(30_000),
    help: "time a client has to send a whole request (ms)",
    readme:
      "time a client has to send a whole request, body included (a stalled upload ends here with a typed 408); `0` turns it off",
  },
  keepAliveTimeoutMs: {
    env: "WORKAPI_KEEP_ALIVE_TIMEOUT_MS",
    ...whole(72_000),
    help: "how long a kept-alive connection waits for its next request (ms)",
    readme:
      "how long a kept-alive connection waits for its next request (above the 60 s of common load balancers)",
  },
  idleTimeoutMs: {
    env: "WORKAPI_IDLE_TIMEOUT_MS",
    ...whole(120_000),
    help: "how long a connection may stay silent both ways (ms)",
    readme:
      "a connection silent both ways this long (a client that stopped reading its answer) is closed; `0` turns it off",
  },
  maxConnectionsPerAddress: {
    env: "WORKAPI_MAX_CONNECTIONS_PER_ADDRESS",
    ...whole(256),
    help: "connections one client address may hold at once",
    readme:
      "connections one client address may hold at once; one more is answered 429 `too_many_requests` (`Retry-After: 1`) and closed. `0`: no limit (behind a proxy, every client has the proxy's address)",
  },
  discardTimeoutMs: {
    env: "WORKAPI_DISCARD_TIMEOUT_MS",
    ...whole(5_000),
    help: "how long a refused body is still read and discarded (ms)",
    readme:
      "after an answer sent before the body was read (a 413), how long the rest of the body is still read and discarded (at most 64 MiB) so the caller reads the answer; then the connection closes",
  },
  shutdownTimeoutMs: {
    env: "WORKAPI_SHUTDOWN_TIMEOUT_MS",
    ...whole(10_000),
    help: "how long a shutdown waits for requests in flight (ms)",
    readme:
      "on `SIGTERM`/`SIGINT`, how long requests in flight may finish; then the connections still open are closed and the process exits 0. `0`: wait as long as they take",
  },
  maxEventLoopDelayMs: {
    env: "WORKAPI_MAX_EVENT_LOOP_DELAY_MS",
    ...whole(20),
    help: "load shedding's target wait (ms)",
    readme:
      "load shedding's target: the event loop's wait (ms) under which nothing is refused (see Load shedding below); `0` turns shedding off",
  },
  maxWaitMs: {
    env: "WORKAPI_MAX_WAIT_MS",
    ...whole(1000),
    help: "load shedding's patience (ms)",
    readme:
      "load shedding's patience: a wait (ms) that stands longer than this is an overload, growing or not",
  },
  sheddingRetryAfterS: {
    env: "WORKAPI_SHEDDING_RETRY_AFTER_S",
    ...whole(2),
    help: "the Retry-After of a shed request (s)",
    readme: "the `Retry-After` (seconds) of a shed request",
  },
  maxSandboxes: {
    env: "WORKAPI_MAX_SANDBOXES",
    ...whole(100),
    help: "live sandboxes the server holds at most",
    readme: "live sandboxes the server holds at most, in all; one more is 409 `conflict` (see Sandboxes)",
  },
  sandboxTtlSeconds: {
    env: "WORKAPI_SANDBOX_TTL_SECONDS",
    ...whole(3600),
    help: "how long a sandbox lives when its create does not say (s)",
    readme: "how long a sandbox lives when `sandboxes.create` gives no `ttl_seconds`",
  },
  sandboxMaxDelayMs: {
    env: "WORKAPI_SANDBOX_MAX_DELAY_MS",
    ...whole(10_000),
    help: "the longest Prefer: delay a sandbox request waits (ms)",
    readme: "the longest `Prefer: delay=<ms>` waits (a longer one waits this long)",
  },
  sandboxJournalMax: {
    env: "WORKAPI_SANDBOX_JOURNAL_MAX",
    ...whole(1000),
    help: "requests each sandbox's journal keeps",
    readme: "requests each sandbox's journal keeps (the latest); `0`: no journal",
  },
  sandboxSpares: {
    env: "WORKAPI_SANDBOX_SPARES",
    ...whole(16),
    help: "seeded sandboxes kept ready once one was made",
    readme:
      "seeded sandboxes kept made ahead (copies of the demo data set nobody can reach yet), once a `seed: true` create has made the template; a seeded create takes one at once; `0`: none (see Sandboxes)",
  },
  sandboxSweepSeconds: {
    env: "WORKAPI_SANDBOX_SWEEP_SECONDS",
    ...whole(30),
    help: "how often expired sandboxes are deleted (s)",
    readme: "how often each process deletes the sandboxes past their expiry; `0`: never",
  },
} as const satisfies Record<string, AnySetting>;

/** The table's rows, for code that goes through them all (the CLI, the README's table). */
export function settingsOf(): Array<[keyof typeof VARIABLES, AnySetting]> {
  return Object.entries(VARIABLES).map(([key, setting]) => [key as keyof typeof VARIABLES, setting]);
}

/** The README's default column of `setting`. */
export function shownDefault(setting: AnySetting): string {
  if (setting.shown !== undefined) return setting.shown;
  return setting.default === undefined ? "unset" : `\`${String(setting.default)}\``;
}

/** The rows of the README's settings table (flag | environment | default | meaning), one line each. */
export function readmeRows(): string[] {
  return settingsOf().map(([, setting]) => {
    const flag = setting.flag ? ` \`${setting.flag.name}\` ` : " ";
    return `|${flag}| \`${setting.env}\` | ${shownDefault(setting)} | ${setting.readme} |`;
  });
}
