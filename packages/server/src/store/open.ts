// Opening the store: SQLite (better-sqlite3, the embedded default, in a data directory or in memory) or
// PostgreSQL (pg, optionally in its own schema), migrated to the current version, as one SqlStore.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type KyselyConfig,
  Log,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from "kysely";
import { type Counts, DatabaseChanges, FileChanges } from "./changes.js";
import { BACKSTOP_FRAMES, type CheckpointMode, checkpointThread } from "./checkpoints.js";
import { CredentialsCache } from "./credentials.js";
import { SqliteDocumentStreams } from "./document-streams.js";
import { CREDENTIALS, connectionCounts, fileCounts, KeptRecords, requestCounts } from "./kept-records.js";
import { type DialectName, migrationProvider } from "./migrations.js";
import { NEXT_NUMBERS, NUMBERS_CONNECTION_OPTIONS, NumbersOutside } from "./numbers.js";
import { OwnConnection } from "./own-connection.js";
import { SqlStore } from "./sql-store.js";
import { SplitSqliteDialect, type WritesInFlight, withStatementCache } from "./sqlite-split.js";
import type { DB } from "./tables.js";
import type { Store } from "./types.js";

export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface OpenStoreOptions {
  /** `postgres://...`; without it the store is SQLite in `dataDir`. */
  databaseUrl?: string;
  /** Directory of `workapi.sqlite` (created when missing), or `:memory:` for a throwaway database. */
  dataDir?: string;
  /** PostgreSQL schema to work in (created when missing); every connection's search_path is set to it. */
  postgresSchema?: string;
  logger?: StoreLogger;
  /** Kysely's query log, e.g. `(event) => ...` to see every statement (tests use it). */
  log?: KyselyConfig["log"];
  /** Who checkpoints a SQLite file's WAL (see ./checkpoints.ts); default "commit", SQLite's own way. */
  checkpoints?: CheckpointMode;
  /** On a SQLite file, how many writes the caller has in flight: group commits split them (./sqlite-split.ts). */
  writesInFlight?: WritesInFlight;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/** How many distinct query texts a PostgreSQL store runs as named prepared statements. */
const NAMED_STATEMENTS = 500;

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options);
}

/** Drops a PostgreSQL schema and everything in it (test cleanup). */
export async function dropPostgresSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * The page cache of a SQLite file's write connection, in KiB (SQLite's default is 2 MiB). A create changes
 * some ten B-trees (the records table and its indexes, twice: the record and its timeline entry); past a
 * few thousand work items their pages no longer fitted in 2 MiB, and each create read pages back from the
 * file (pread64 calls in strace). With 64 MiB, works.create on a database seeded with 10,000 work items
 * served 1.15-1.36x as many creates (three alternated pairs). Pages are held only once read: a small
 * database's connection stays small.
 */
const PAGE_CACHE_KIB = 65_536;

/** How long (ms) a new file's switch into WAL mode is retried while another process switches it too. */
const WAL_SWITCH_MS = 10_000;

/**
 * `PRAGMA journal_mode = WAL`, retried while SQLite answers SQLITE_BUSY. Two processes opening a new file
 * together both read it (a shared lock) and then need it alone to switch its journal mode; SQLite answers one
 * of them SQLITE_BUSY at once rather than let the two wait for each other, whatever busy_timeout says. One of
 * two servers started together on an empty data directory failed its start that way in a CI run ("database
 * is locked"). The statement holds no lock once it has failed, so the other switches, and the retry finds
 * the file in WAL mode.
 */
async function intoWal(sqlite: Database.Database): Promise<void> {
  const deadline = performance.now() + WAL_SWITCH_MS;
  for (;;) {
    try {
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === "SQLITE_BUSY";
      if (!busy || performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

async function openSqlite(options: OpenStoreOptions): Promise<Store> {
  const { dataDir } = options;
  if (!dataDir) throw new Error("openStore: dataDir is required when no databaseUrl is given");
  let file = ":memory:";
  if (dataDir !== ":memory:") {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, "workapi.sqlite");
  }
  const sqlite = new Database(file);
  sqlite.pragma("busy_timeout = 5000");
  await intoWal(sqlite);
  // In WAL mode, NORMAL syncs the log at checkpoints rather than at every commit: a committed transaction
  // survives the process being killed (it is in the WAL file, which the OS holds), and only an OS crash or
  // power loss can take back the last commits. FULL would fsync every commit and hold the event loop while
  // it does (better-sqlite3 is synchronous).
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  // Temporary files in memory: the sub-journal that keeps each transaction's savepoint (see group commit in
  // SplitSqliteDriver) would otherwise be a file written page by page.
  sqlite.pragma("temp_store = MEMORY");
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const checkpoints = file === ":memory:" ? "commit" : (options.checkpoints ?? "commit");
  if (checkpoints !== "commit") sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_FRAMES}`);
  const writer = withStatementCache(sqlite);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: writer }),
    ...(options.log ? { log: options.log } : {}),
  });
  // Kysely's migration lock is a no-op on SQLite (one connection per process), so two processes opening the
  // same file take SQLite's own write lock instead: the second waits (busy_timeout), then finds nothing
  // left to do.
  sqlite.exec("begin immediate");
  try {
    await migrate(db, "sqlite", undefined, options.logger);
    sqlite.exec("commit");
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec("rollback");
    await db.destroy();
    throw error;
  }
  options.logger?.info(`store: SQLite at ${file}`);
  // An in-memory database exists only on its one connection.
  if (file === ":memory:") return memoryStore(db, sqlite);

  // Reads outside a transaction go to a read-only connection of their own: under WAL it sees every committed
  // transaction, and it need not wait while a write transaction holds the write connection across awaits.
  const reader = new Database(file, { readonly: true });
  reader.pragma("busy_timeout = 5000");
  // Not mapped: a read transaction that finds the file grown (checkpoints grow it) maps it again, and an unmap
  // stops every core running a thread of the process. Under a writer, a create cost 1,078-1,246 µs of CPU
  // mapped, 768-792 µs not; the large answers that gain from a map have connections of their own.
  const thread =
    checkpoints === "thread" ? checkpointThread(file, (message) => options.logger?.warn(message)) : undefined;
  const split = new Kysely<DB>({
    dialect: new SplitSqliteDialect(
      writer,
      withStatementCache(reader),
      () => sqlite.inTransaction,
      thread,
      options.writesInFlight,
    ),
    ...(options.log ? { log: options.log } : {}),
  });
  // The version moves whenever another connection (this process's writers, or any other process) commits to
  // the file; the counts, read only when it moved, say what the commits changed (see Changes).
  const dataVersion = reader.prepare("pragma data_version").pluck();
  const credentialChanges = reader.prepare("select n from credential_changes where id = 1").pluck();
  const familyChanges = reader.prepare("select n from kept_record_changes where kind = ?").pluck();
  const changes = new FileChanges(
    () => dataVersion.get() as number,
    () => credentialChanges.get() as number,
    // A family without a row has had no change yet.
    (kind) => (familyChanges.get(kind) as number | undefined) ?? 0,
  );
  const cache = new CredentialsCache(changes);
  const kept = sqliteKeptRecords(sqlite, changes);
  return new SqlStore(split, "sqlite", cache, undefined, kept, changes, new SqliteDocumentStreams(file));
}

/** A store on an in-memory SQLite database, whose one connection is `sqlite`. */
function memoryStore(db: Kysely<DB>, sqlite: Database.Database): Store {
  const kept = new KeptRecords(
    connectionCounts(countsOn(sqlite), () => sqlite.inTransaction),
    true,
  );
  return new SqlStore(db, "sqlite", undefined, undefined, kept);
}

/** A SQLite file's kept records: inside a transaction, their counts are read on the write connection `sqlite`. */
function sqliteKeptRecords(sqlite: Database.Database, changes: FileChanges): KeptRecords {
  return new KeptRecords(fileCounts(changes, countsOn(sqlite)));
}

/** A family's count (or the credentials') as a transaction on the connection `sqlite` sees it. */
function countsOn(sqlite: Database.Database): (family: string) => number {
  const family = sqlite.prepare("select n from kept_record_changes where kind = ?").pluck();
  const credentials = sqlite.prepare("select n from credential_changes where id = 1").pluck();
  // A family without a row has had no change yet.
  return (name) =>
    name === CREDENTIALS ? (credentials.get() as number) : ((family.get(name) as number | undefined) ?? 0);
}

async function openPostgres(databaseUrl: string, options: OpenStoreOptions): Promise<Store> {
  const schema = options.postgresSchema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  }
  // Loaded only for PostgreSQL: a SQLite server starts without paying for it.
  const { default: pg } = await import("pg");
  // Parameterized queries run as named prepared statements: each connection parses a statement once and
  // PostgreSQL can keep its plan, where an unnamed query is parsed and planned on every run (planning cost
  // more than running most of ours: a tags.list page took 320 µs unnamed, 140 µs named). Names go to the
  // first NAMED_STATEMENTS distinct texts, the hot ones among them (the credentials and record queries of the
  // first requests); later texts run unnamed, so no connection collects statements without bound.
  const prepared = new Map<string, string>();
  class NamedStatementsClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; calls are passed through as made
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config !== "string" || !Array.isArray(values)) return super.query(config, values, callback);
      let name = prepared.get(config);
      if (name === undefined && prepared.size < NAMED_STATEMENTS) {
        name = `workapi_${prepared.size + 1}`;
        prepared.set(config, name);
      }
      if (name === undefined) return super.query(config, values, callback);
      return super.query({ name, text: config, values }, callback);
    }
  }
  const connectionConfig = {
    connectionString: databaseUrl,
    // A startup parameter, so the search_path is in place before the first query on every connection.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  const pool = new pg.Pool({ Client: NamedStatementsClient, ...connectionConfig });
  // An idle connection that dies (database restart, network) must not crash the process; the pool moves on.
  pool.on("error", (error) => options.logger?.warn(`store: PostgreSQL connection error: ${error.message}`));
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    if (schema) await createSchema(db, schema);
    const current = await sql<{ name: string }>`select current_schema() as name`.execute(db);
    const name = current.rows[0]?.name;
    if (!name) throw new Error("PostgreSQL: no current schema (check search_path)");
    // The migrator looks its tables up across all schemas unless told which one is ours.
    await migrate(db, "postgres", name, options.logger);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  options.logger?.info(`store: PostgreSQL${schema ? `, schema ${schema}` : ""}`);
  const log = options.log ? new Log(options.log) : undefined;
  const own = (name: string, statement: CompiledQuery, settings = "") =>
    new OwnConnection(
      pg.Client,
      { ...connectionConfig, options: [connectionConfig.options, settings].filter(Boolean).join(" ") },
      name,
      statement,
      options.logger,
      log,
    );
  const changes = postgresCounts(own("workapi_counts", COUNTS_STATEMENT.compile(db)));
  const numbers = new NumbersOutside(
    own("workapi_numbers", NEXT_NUMBERS.compile(db), NUMBERS_CONNECTION_OPTIONS),
  );
  return new SqlStore(
    db,
    "postgres",
    new CredentialsCache(changes),
    undefined,
    new KeptRecords(requestCounts),
    changes,
    undefined,
    numbers,
  );
}

/**
 * Every count in one statement, shared by the requests of a turn (see DatabaseChanges), as one value: the
 * credentials count, then each family's as `kind=n`, separated by spaces (kinds hold no spaces); each count
 * is the sum of its slots' rows (migration 0013_postgres_count_slots). A row per family cost the driver about
 * 10% of a kept read's CPU profile in parsing them.
 */
const COUNTS_STATEMENT = sql<{ counts: string }>`select (select sum(n) from credential_changes)::text
    || coalesce((select string_agg(' ' || kind || '=' || n, '') from
      (select kind, sum(n) as n from kept_record_changes group by kind) as counts), '') as counts`;

/** PostgreSQL's change counts, read with COUNTS_STATEMENT on `counts`, a connection of their own. */
function postgresCounts(counts: OwnConnection): DatabaseChanges {
  // Read as they were the last time, most of the time: then they are not parsed again.
  let last: { text: string; counts: Counts } | undefined;
  const read = async (): Promise<Counts> => {
    const value = await counts.read();
    const text = typeof value === "string" ? value : "";
    if (last?.text === text) return last.counts;
    const [credentials = "0", ...kinds] = text.split(" ");
    const families = new Map<string, number>();
    for (const pair of kinds) {
      const at = pair.lastIndexOf("=");
      // A count stays far below 2^53.
      families.set(pair.slice(0, at), Number(pair.slice(at + 1)));
    }
    last = { text, counts: { credentials: Number(credentials), families } };
    return last.counts;
  };
  return new DatabaseChanges(read, undefined, () => counts.close());
}

async function createSchema(db: Kysely<DB>, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } catch (error) {
    // Two processes creating it at once: "if not exists" can still fail in the loser; fine if it now exists.
    const found = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(db);
    if (found.rows.length === 0) throw error;
  }
}

export async function migrate(
  db: Kysely<DB>,
  dialect: DialectName,
  schema: string | undefined,
  logger: StoreLogger | undefined,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === "Success") logger?.info(`store: applied migration ${result.migrationName}`);
    else if (result.status === "Error") logger?.warn(`store: migration ${result.migrationName} failed`);
  }
  if (error) throw error;
}

/**
 * SQLite transactions start with BEGIN IMMEDIATE: the write lock is taken up front, so a transaction that
 * reads and then writes never fails halfway because another process wrote in between (it waits instead).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
