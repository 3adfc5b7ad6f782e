// The store on SQLite (better-sqlite3, embedded default) or PostgreSQL (pg), through Kysely. One class,
// SqlStore, runs over a Kysely handle: the root store over the database, a transaction's store over the
// Transaction. Where the two SQL dialects differ (JSON access, collation, row locks), the Expressions class
// builds the right fragment; everything a caller supplies reaches the database as a bound parameter.
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import {
  type ColumnType,
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Generated,
  Kysely,
  type KyselyConfig,
  Migrator,
  PostgresDialect,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from "kysely";
import pg from "pg";
import { type DialectName, migrationProvider } from "./migrations.js";
import {
  type Actor,
  type BaseFields,
  type DevUser,
  type Filter,
  type ListQuery,
  type NewRecord,
  type Org,
  type Page,
  type SortKey,
  type Store,
  type StoredRecord,
  StoreError,
  type TokenRecord,
} from "./types.js";

// ---------------------------------------------------------------------------------------------------------
// Tables

interface OrgsTable {
  id: string;
  number: number;
  name: string;
  status: Org["status"];
  created_date: string;
}

interface CountersTable {
  org_id: string;
  prefix: string;
  value: number;
}

interface DevUsersTable {
  id: string;
  org_id: string;
  number: number;
  display_id: string;
  email: string;
  full_name: string;
  display_name: string;
  state: string;
  created_date: string;
}

interface TokensTable {
  id: string;
  org_id: string;
  number: number;
  display_id: string;
  subject: string;
  hash: string;
  token_hint: string;
  requested_token_type: string;
  /** JSON array of strings. */
  scopes: string;
  client_id: string | null;
  status: TokenRecord["status"];
  issued_at: string;
  expires_at: string | null;
  created_by: string;
  created_date: string;
  modified_by: string;
  modified_date: string;
  object_version: number;
}

interface RecordsTable {
  /** Insertion order; the unique tie-breaker of every sort. PostgreSQL returns its bigint as a string. */
  seq: Generated<number | string>;
  kind: string;
  id: string;
  display_id: string;
  org_id: string;
  subtype: string | null;
  parent_id: string | null;
  label: string;
  external_ref: string | null;
  created_date: string;
  modified_date: string;
  object_version: number;
  /** JSON text written; read back as text (SQLite) or as a parsed object (PostgreSQL jsonb). */
  data: ColumnType<unknown, string, string>;
}

interface DB {
  orgs: OrgsTable;
  counters: CountersTable;
  dev_users: DevUsersTable;
  tokens: TokensTable;
  records: RecordsTable;
}

type RecordRow = {
  [K in keyof RecordsTable]: RecordsTable[K] extends ColumnType<infer S, unknown, unknown>
    ? S
    : RecordsTable[K];
};

// ---------------------------------------------------------------------------------------------------------
// Opening

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
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openSqlite(options);
}

/** Drops a PostgreSQL schema and everything in it (test cleanup). */
export async function dropPostgresSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
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
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
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
  return new SqlStore(db, "sqlite");
}

async function openPostgres(databaseUrl: string, options: OpenStoreOptions): Promise<Store> {
  const schema = options.postgresSchema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    // A startup parameter, so the search_path is in place before the first query on every connection.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
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
  return new SqlStore(db, "postgres");
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

async function migrate(
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
 * Kysely prepares every query anew; preparing costs more than running most of ours. Statements are reusable
 * in better-sqlite3, and the single connection runs one query at a time, so they are kept by SQL text (the
 * query shapes are few; the cache is bounded all the same).
 */
function withStatementCache(database: Database.Database, size = 500) {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
        statement = database.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
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

// ---------------------------------------------------------------------------------------------------------
// The store

const ORG_COUNTER = { orgId: "", prefix: "ORG" };

class SqlStore implements Store {
  readonly #db: Kysely<DB>;
  readonly #x: Expressions;

  constructor(
    db: Kysely<DB>,
    readonly dialect: DialectName,
  ) {
    this.#db = db;
    this.#x = new Expressions(dialect);
  }

  /**
   * Runs `fn` in a transaction, or directly when this store already is one. While a SQLite transaction runs,
   * other calls on the root store wait for it (one connection), so inside `fn` use `tx` only.
   */
  #inTx<R>(fn: (store: SqlStore) => Promise<R>): Promise<R> {
    if (this.#db.isTransaction) return fn(this);
    return this.#db.transaction().execute((trx) => fn(new SqlStore(trx, this.dialect)));
  }

  transaction<R>(fn: (tx: Store) => Promise<R>): Promise<R> {
    return this.#inTx(fn);
  }

  async close(): Promise<void> {
    if (this.#db.isTransaction) throw new Error("close() is for the root store, not a transaction");
    await this.#db.destroy();
  }

  /** The next number of a per-organization sequence, atomically (the row stays locked until commit). */
  async #nextNumber(orgId: string, prefix: string): Promise<number> {
    const row = await this.#db
      .insertInto("counters")
      .values({ org_id: orgId, prefix, value: 1 })
      .onConflict((oc) =>
        oc.columns(["org_id", "prefix"]).doUpdateSet({ value: sql<number>`counters.value + 1` }),
      )
      .returning("value")
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  // Organizations -------------------------------------------------------------------------------------------

  createOrg(name: string): Promise<Org> {
    return this.#inTx(async (tx) => {
      const number = await tx.#nextNumber(ORG_COUNTER.orgId, ORG_COUNTER.prefix);
      const org: Org = {
        number,
        id: `don:identity:workapi:devo/${number}`,
        name,
        status: "active",
        created_date: now(),
      };
      await tx.#db.insertInto("orgs").values(org).execute();
      return org;
    });
  }

  async getOrg(id: string): Promise<Org | undefined> {
    const row = await this.#db.selectFrom("orgs").selectAll().where("id", "=", id).executeTakeFirst();
    return row && toOrg(row);
  }

  async listOrgs(): Promise<Org[]> {
    const rows = await this.#db.selectFrom("orgs").selectAll().orderBy("number").execute();
    return rows.map(toOrg);
  }

  async setOrgStatus(id: string, status: Org["status"]): Promise<void> {
    const result = await this.#db.updateTable("orgs").set({ status }).where("id", "=", id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0)
      throw new StoreError("not_found", `Organization ${id} not found`);
  }

  // Dev users -----------------------------------------------------------------------------------------------

  createDevUser(
    org: Org,
    fields: { email: string; full_name: string; display_name?: string },
  ): Promise<DevUser> {
    return this.#inTx(async (tx) => {
      const number = await tx.#nextNumber(org.id, "DEVU");
      const row: DevUsersTable = {
        id: `don:core:workapi:devo/${org.number}:devu/${number}`,
        org_id: org.id,
        number,
        display_id: `DEVU-${number}`,
        email: fields.email,
        full_name: fields.full_name,
        display_name: fields.display_name ?? fields.email.split("@")[0] ?? fields.email,
        state: "active",
        created_date: now(),
      };
      await tx.#db.insertInto("dev_users").values(row).execute();
      return toDevUser(row);
    });
  }

  async getDevUser(orgId: string, id: string): Promise<DevUser | undefined> {
    const row = await this.#db
      .selectFrom("dev_users")
      .selectAll()
      .where("org_id", "=", orgId)
      .where(idColumn(id), "=", id)
      .executeTakeFirst();
    return row && toDevUser(row);
  }

  async listDevUsers(orgId: string): Promise<DevUser[]> {
    const rows = await this.#db
      .selectFrom("dev_users")
      .selectAll()
      .where("org_id", "=", orgId)
      .orderBy("number")
      .execute();
    return rows.map(toDevUser);
  }

  // Tokens --------------------------------------------------------------------------------------------------

  createToken(
    actor: Actor,
    fields: Pick<
      TokenRecord,
      "subject" | "hash" | "token_hint" | "requested_token_type" | "scopes" | "client_id" | "expires_at"
    >,
  ): Promise<TokenRecord> {
    return this.#inTx(async (tx) => {
      const number = await tx.#nextNumber(actor.orgId, "TOKEN");
      const time = now();
      const row: TokensTable = {
        id: `don:core:workapi:devo/${actor.orgNumber}:token/${number}`,
        org_id: actor.orgId,
        number,
        display_id: `TOKEN-${number}`,
        subject: fields.subject,
        hash: fields.hash,
        token_hint: fields.token_hint,
        requested_token_type: fields.requested_token_type,
        scopes: JSON.stringify(fields.scopes),
        client_id: fields.client_id,
        status: "active",
        issued_at: time,
        expires_at: fields.expires_at,
        created_by: actor.user.id,
        created_date: time,
        modified_by: actor.user.id,
        modified_date: time,
        object_version: 1,
      };
      await rethrowConflict(tx.#db.insertInto("tokens").values(row).execute());
      return toToken(row);
    });
  }

  async findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    // On every request: a single lookup through the unique index on hash.
    const row = await this.#db.selectFrom("tokens").selectAll().where("hash", "=", hash).executeTakeFirst();
    return row && toToken(row);
  }

  async getToken(orgId: string, id: string): Promise<TokenRecord | undefined> {
    const row = await this.#db
      .selectFrom("tokens")
      .selectAll()
      .where("org_id", "=", orgId)
      .where(idColumn(id), "=", id)
      .executeTakeFirst();
    return row && toToken(row);
  }

  async listTokens(
    orgId: string,
    filter: { subject: string; requested_token_type?: string; client_id?: string },
  ): Promise<TokenRecord[]> {
    let query = this.#db
      .selectFrom("tokens")
      .selectAll()
      .where("org_id", "=", orgId)
      .where("subject", "=", filter.subject);
    if (filter.requested_token_type !== undefined) {
      query = query.where("requested_token_type", "=", filter.requested_token_type);
    }
    if (filter.client_id !== undefined) query = query.where("client_id", "=", filter.client_id);
    const rows = await query.orderBy("number").execute();
    return rows.map(toToken);
  }

  revokeToken(actor: Actor, id: string): Promise<TokenRecord> {
    return this.#inTx(async (tx) => {
      const row = await tx.#db
        .selectFrom("tokens")
        .selectAll()
        .where("org_id", "=", actor.orgId)
        .where(idColumn(id), "=", id)
        .$if(tx.dialect === "postgres", (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) throw new StoreError("not_found", `Token ${id} not found`);
      if (row.status === "revoked") return toToken(row); // already revoked: nothing changes
      const changes = {
        status: "revoked" as const,
        modified_by: actor.user.id,
        modified_date: now(),
        object_version: row.object_version + 1,
      };
      await tx.#db.updateTable("tokens").set(changes).where("id", "=", row.id).execute();
      return toToken({ ...row, ...changes });
    });
  }

  // Records -------------------------------------------------------------------------------------------------

  createRecord<T extends object>(actor: Actor, record: NewRecord<T>): Promise<StoredRecord<T>> {
    return this.#inTx(async (tx) => {
      const number = await tx.#nextNumber(actor.orgId, record.prefix);
      const id = `don:core:workapi:devo/${actor.orgNumber}:${record.idType}/${number}`;
      const time = now();
      const base: BaseFields = {
        id,
        display_id: `${record.prefix}-${number}`,
        created_by: actor.user,
        created_date: time,
        modified_by: actor.user,
        modified_date: time,
        object_version: 1,
      };
      const data = { ...record.data, ...base };
      const stored: StoredRecord<T> = {
        kind: record.kind,
        id,
        display_id: base.display_id,
        org_id: actor.orgId,
        subtype: record.subtype ?? null,
        parent_id: record.parent_id ?? null,
        label: record.label ?? "",
        external_ref: record.external_ref ?? null,
        created_date: time,
        modified_date: time,
        object_version: 1,
        data,
      };
      await rethrowConflict(
        tx.#db
          .insertInto("records")
          .values({ ...stored, data: JSON.stringify(data) })
          .execute(),
      );
      return stored;
    });
  }

  async getRecord<T extends object>(
    orgId: string,
    kinds: string[],
    idOrDisplayId: string,
  ): Promise<StoredRecord<T> | undefined> {
    const row = await this.#db
      .selectFrom("records")
      .selectAll()
      .where("org_id", "=", orgId)
      .$if(kinds.length > 0, (q) => q.where("kind", "in", kinds))
      .where(idColumn(idOrDisplayId), "=", idOrDisplayId)
      .orderBy("seq")
      .limit(1)
      .executeTakeFirst();
    return row && toRecord<T>(row);
  }

  updateRecord<T extends object>(
    actor: Actor,
    kind: string,
    id: string,
    change: (current: StoredRecord<T>) => {
      data: T;
      label?: string;
      subtype?: string | null;
      parent_id?: string | null;
      external_ref?: string | null;
    },
  ): Promise<StoredRecord<T>> {
    return this.#inTx(async (tx) => {
      // PostgreSQL locks the row for the transaction (FOR UPDATE); SQLite transactions hold the write lock
      // from BEGIN IMMEDIATE. The version check in the UPDATE guards anyway: on a lost race, read again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const row = await tx.#db
          .selectFrom("records")
          .selectAll()
          .where("org_id", "=", actor.orgId)
          .where("kind", "=", kind)
          .where(idColumn(id), "=", id)
          .$if(tx.dialect === "postgres", (q) => q.forUpdate())
          .executeTakeFirst();
        if (!row) throw new StoreError("not_found", `${kind} ${id} not found`);
        const current = toRecord<T>(row);
        const next = change(current);
        const time = now();
        const version = current.object_version + 1;
        const data: T & BaseFields = {
          ...next.data,
          id: current.id,
          display_id: current.display_id,
          created_by: current.data.created_by,
          created_date: current.created_date,
          modified_by: actor.user,
          modified_date: time,
          object_version: version,
        };
        const columns = {
          label: next.label ?? current.label,
          subtype: next.subtype === undefined ? current.subtype : next.subtype,
          parent_id: next.parent_id === undefined ? current.parent_id : next.parent_id,
          external_ref: next.external_ref === undefined ? current.external_ref : next.external_ref,
          modified_date: time,
          object_version: version,
        };
        const result = await rethrowConflict(
          tx.#db
            .updateTable("records")
            .set({ ...columns, data: JSON.stringify(data) })
            .where("id", "=", current.id)
            .where("object_version", "=", current.object_version)
            .executeTakeFirst(),
        );
        if (Number(result.numUpdatedRows) === 1) return { ...current, ...columns, data };
      }
      throw new StoreError("version_mismatch", `${kind} ${id} was changed concurrently; try again`);
    });
  }

  async deleteRecord(actor: Actor, kind: string, id: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom("records")
      .where("org_id", "=", actor.orgId)
      .where("kind", "=", kind)
      .where(idColumn(id), "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async countRecords(orgId: string, kind: string, filter?: Filter): Promise<number> {
    const row = await this.#scope(orgId, kind, filter)
      .select(sql<number | string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findRecords<T extends object>(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
  ): Promise<Array<StoredRecord<T>>> {
    const keys = this.#x.sortKeys(query.sort);
    const rows = await this.#ordered(this.#scope(orgId, kind, query.filter), keys, false)
      .limit(checkLimit(query.limit))
      .execute();
    return rows.map((row) => toRecord<T>(row));
  }

  /**
   * Keyset pagination. A position is a row's sort values plus its seq; `after` reads forwards from the
   * cursor's position, `before` reads backwards (reversed order, then flipped back). One query reads the page
   * (limit + 1 rows: the extra one says whether more lie that way) and, when a cursor was given, one EXISTS
   * query says whether rows lie the other way.
   */
  async listRecords<T extends object>(orgId: string, kind: string, query: ListQuery): Promise<Page<T>> {
    const limit = checkLimit(query.limit);
    const keys = this.#x.sortKeys(query.sort);
    const hash = listHash(kind, query.filter, keys);
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, hash, keys);
    const forward = (query.mode ?? "after") === "after";
    const side: Side = forward ? "after" : "before";
    const otherSide: Side = forward ? "before" : "after";

    let pageQuery = this.#ordered(this.#scope(orgId, kind, query.filter), keys, !forward);
    if (cursor) pageQuery = pageQuery.where(this.#x.keyset(keys, cursor, side));
    const rows = await pageQuery.limit(limit + 1).execute();
    const more = rows.length > limit;
    const pageRows = rows.slice(0, limit);
    if (!forward) pageRows.reverse();
    const positions = pageRows.map((row) => positionOf(row, keys));

    // Whether rows lie on the other side: before the first item (after mode) or after the last (before mode).
    // Without a cursor the page starts at that end. An empty page measures from the cursor itself, and the
    // cursor handed back for that side includes the cursor's row, which this page did not.
    let back: Position | undefined;
    if (cursor) {
      const edge = forward ? positions[0] : positions[positions.length - 1];
      const from = edge ?? { ...cursor, inclusive: !cursor.inclusive };
      const found = await this.#scope(orgId, kind, query.filter)
        .select(sql<number>`1`.as("one"))
        .where(this.#x.keyset(keys, from, otherSide))
        .limit(1)
        .executeTakeFirst();
      if (found) back = from;
    }
    const ahead = more ? (forward ? positions[positions.length - 1] : positions[0]) : undefined;

    const page: Page<T> = { items: pageRows.map((row) => toRecord<T>(row)) };
    const nextPosition = forward ? ahead : back;
    const prevPosition = forward ? back : ahead;
    if (nextPosition) page.next_cursor = encodeCursor(nextPosition, hash);
    if (prevPosition) page.prev_cursor = encodeCursor(prevPosition, hash);
    return page;
  }

  /** The records of one organization and family that match `filter`. */
  #scope(orgId: string, kind: string, filter: Filter | undefined) {
    return this.#db
      .selectFrom("records")
      .where("org_id", "=", orgId)
      .where("kind", "=", kind)
      .$if(filter !== undefined, (q) => q.where(this.#x.filter(filter as Filter)));
  }

  /** Selects the records with their sort values (s0, s1, ...), ordered by the keys and then seq. */
  #ordered(
    scope: SelectQueryBuilder<DB, "records", object>,
    keys: SortSpec[],
    reverse: boolean,
  ): SelectQueryBuilder<DB, "records", RecordRow & Record<string, unknown>> {
    let query = scope
      .selectAll("records")
      .select(keys.map((key, i) => key.expr.as(`s${i}`))) as SelectQueryBuilder<
      DB,
      "records",
      RecordRow & Record<string, unknown>
    >;
    const flip = (direction: "asc" | "desc") =>
      reverse ? (direction === "asc" ? "desc" : "asc") : direction;
    keys.forEach((key, i) => {
      query = query.orderBy(sql.ref(`s${i}`), flip(key.direction));
    });
    const last = keys[keys.length - 1]?.direction ?? "asc";
    return query.orderBy("records.seq", flip(last));
  }
}

// ---------------------------------------------------------------------------------------------------------
// SQL expressions: filters, sort keys, keyset conditions

type Sql = RawBuilder<unknown>;
type Condition = RawBuilder<SqlBool>;
type Side = "after" | "before";

/** A place in a sorted list: a row's sort values and seq. `inclusive`: the range starts at the row itself. */
interface Position {
  values: Array<string | number>;
  seq: number;
  inclusive?: boolean;
}

interface SortSpec {
  path: string;
  direction: "asc" | "desc";
  type: "text" | "number";
  /** The value sorted on; never NULL (missing values become '' or LOWEST). */
  expr: Sql;
}

/** Columns that `Filter` and `SortKey` paths may name directly. */
const COLUMNS = new Set([
  "subtype",
  "parent_id",
  "label",
  "external_ref",
  "created_date",
  "modified_date",
  "display_id",
  "id",
  "object_version",
]);
const NULLABLE_COLUMNS = new Set(["subtype", "parent_id", "external_ref"]);
const PATH = /^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$/i;
/** Where missing numbers sort: below every real number, and still representable in JSON (the cursor). */
const LOWEST = -Number.MAX_VALUE;
const OPERATORS = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

function checkPath(path: string): string {
  if (!PATH.test(path)) throw new Error(`Invalid field path: ${JSON.stringify(path)}`);
  return path;
}

class Expressions {
  readonly #pg: boolean;

  constructor(dialect: DialectName) {
    this.#pg = dialect === "postgres";
  }

  // JSON access. `doc` is a JSON document expression, `path` one made by jsonPath(). Each accessor yields
  // the value only when it has the wanted JSON type (NULL otherwise), so both databases compare alike.

  /** A JSON path as a bound parameter: `$.a.b` (SQLite) or `{a,b}` (PostgreSQL). */
  jsonPath(path: string): Sql {
    checkPath(path);
    return this.#pg ? sql`${`{${path.split(".").join(",")}}`}::text[]` : sql`${`$.${path}`}`;
  }

  #jsonType(doc: Sql, path: Sql): Sql {
    return this.#pg ? sql`jsonb_typeof(${doc} #> ${path})` : sql`json_type(${doc}, ${path})`;
  }

  textAt(doc: Sql, path: Sql): Sql {
    return this.#pg
      ? sql`(case when ${this.#jsonType(doc, path)} = 'string' then ${doc} #>> ${path} end) collate "C"`
      : sql`case when ${this.#jsonType(doc, path)} = 'text' then json_extract(${doc}, ${path}) end`;
  }

  numberAt(doc: Sql, path: Sql): Sql {
    return this.#pg
      ? sql`case when ${this.#jsonType(doc, path)} = 'number' then (${doc} #>> ${path})::float8 end`
      : sql`case when ${this.#jsonType(doc, path)} in ('integer', 'real')
          then json_extract(${doc}, ${path}) end`;
  }

  /** Booleans as the text 'true' / 'false'. */
  booleanAt(doc: Sql, path: Sql): Sql {
    return this.#pg
      ? sql`case when ${this.#jsonType(doc, path)} = 'boolean' then ${doc} #>> ${path} end`
      : sql`case ${this.#jsonType(doc, path)} when 'true' then 'true' when 'false' then 'false' end`;
  }

  #present(doc: Sql, path: Sql): Condition {
    return sql<SqlBool>`coalesce(${this.#jsonType(doc, path)}, 'null') <> 'null'`;
  }

  #valueAt(doc: Sql, path: Sql, value: string | number | boolean): Sql {
    if (typeof value === "number") return this.numberAt(doc, path);
    if (typeof value === "boolean") return this.booleanAt(doc, path);
    return this.textAt(doc, path);
  }

  // Filters. NOT and `ne` coalesce NULL to false first, so they are the exact complement of their operand
  // (a record without the field is "not equal" to any value).

  filter(f: Filter): Condition {
    switch (f.op) {
      case "and":
        return f.filters.length === 0 ? sql<SqlBool>`1 = 1` : this.#join(f.filters, "and");
      case "or":
        return f.filters.length === 0 ? sql<SqlBool>`1 = 0` : this.#join(f.filters, "or");
      case "not":
        return this.#not(this.filter(f.filter));
      case "ne":
        return this.#not(this.#compare(f.path, "eq", f.value));
      case "eq":
      case "gt":
      case "gte":
      case "lt":
      case "lte":
        return this.#compare(f.path, f.op, f.value);
      case "in":
        return this.#in(f.path, f.values);
      case "any":
        return this.#any(f.path, f.key, f.values);
      case "exists": {
        const present = COLUMNS.has(f.path)
          ? sql<SqlBool>`${sql.ref(`records.${f.path}`)} is not null`
          : this.#present(sql.ref("records.data"), this.jsonPath(f.path));
        return f.exists ? present : this.#not(present);
      }
      default:
        throw new Error(`Unknown filter operator: ${JSON.stringify((f as { op?: unknown }).op)}`);
    }
  }

  #join(filters: Filter[], connective: "and" | "or"): Condition {
    const parts = filters.map((f) => sql`(${this.filter(f)})`);
    return sql<SqlBool>`(${sql.join(parts, sql.raw(` ${connective} `))})`;
  }

  #not(condition: Condition): Condition {
    return sql<SqlBool>`not coalesce((${condition}), false)`;
  }

  #compare(path: string, op: keyof typeof OPERATORS, value: string | number | boolean): Condition {
    const operator = sql.raw(OPERATORS[op]);
    if (COLUMNS.has(path)) {
      return sql<SqlBool>`${sql.ref(`records.${path}`)} ${operator} ${columnValue(path, value)}`;
    }
    const expr = this.#valueAt(sql.ref("records.data"), this.jsonPath(path), value);
    return sql<SqlBool>`${expr} ${operator} ${jsonValue(value)}`;
  }

  #in(path: string, values: Array<string | number | boolean>): Condition {
    if (COLUMNS.has(path)) {
      if (values.length === 0) return sql<SqlBool>`1 = 0`;
      const list = sql.join(values.map((v) => columnValue(path, v)));
      return sql<SqlBool>`${sql.ref(`records.${path}`)} in (${list})`;
    }
    const doc = sql.ref("records.data");
    const jsonPath = this.jsonPath(path);
    return this.#typedIn(values, (type) => {
      if (type === "number") return this.numberAt(doc, jsonPath);
      if (type === "boolean") return this.booleanAt(doc, jsonPath);
      return this.textAt(doc, jsonPath);
    });
  }

  /** `value in (...)`, one IN list per JSON type present among `values`, OR-ed together. */
  #typedIn(
    values: Array<string | number | boolean>,
    at: (type: "text" | "number" | "boolean") => Sql,
  ): Condition {
    const groups: Array<["text" | "number" | "boolean", Array<string | number>]> = [
      ["text", values.filter((v) => typeof v === "string")],
      ["number", values.filter((v) => typeof v === "number")],
      ["boolean", values.filter((v) => typeof v === "boolean").map(String)],
    ];
    const parts = groups
      .filter(([, list]) => list.length > 0)
      .map(([type, list]) => sql`${at(type)} in (${sql.join(list.map((v) => sql`${v}`))})`);
    return parts.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
  }

  #any(path: string, key: string | undefined, values: Array<string | number>): Condition {
    if (COLUMNS.has(path)) throw new Error(`"any" needs an array inside data, not the column ${path}`);
    const data = sql.ref("records.data");
    const arrayPath = this.jsonPath(path);
    // Without a key the element itself is compared: PostgreSQL's empty path `{}` is the whole element.
    const keyPath = key === undefined ? sql`${"{}"}::text[]` : this.jsonPath(key);
    if (this.#pg) {
      // jsonb_array_elements fails on a non-array: feed it an empty array instead.
      const array = sql`case when jsonb_typeof(${data} #> ${arrayPath}) = 'array'
        then ${data} #> ${arrayPath} else '[]'::jsonb end`;
      const element = sql.ref("e.value");
      const match = this.#typedIn(values, (type) =>
        type === "number" ? this.numberAt(element, keyPath) : this.textAt(element, keyPath),
      );
      return sql<SqlBool>`exists (select 1 from jsonb_array_elements(${array}) as e(value) where ${match})`;
    }
    // SQLite's json_each gives each element's JSON type and SQL value; an object element's value is its JSON
    // text, which json_type / json_extract can then look into. Only objects are looked into (a plain string
    // is not JSON text, and json_extract would fail on it).
    const match = this.#typedIn(values, (type) => {
      if (key === undefined) {
        const types = type === "number" ? sql`('integer', 'real')` : sql`('text')`;
        return sql`case when e.type in ${types} then e.value end`;
      }
      const element = sql`(case when e.type = 'object' then e.value end)`;
      return type === "number" ? this.numberAt(element, keyPath) : this.textAt(element, keyPath);
    });
    return sql<SqlBool>`(json_type(${data}, ${arrayPath}) = 'array'
      and exists (select 1 from json_each(${data}, ${arrayPath}) as e where ${match}))`;
  }

  // Sorting.

  /** The sort keys of a query (default: created_date ascending), each with its never-NULL expression. */
  sortKeys(sort: SortKey[] | undefined): SortSpec[] {
    const keys = sort && sort.length > 0 ? sort : [{ path: "created_date", direction: "asc" as const }];
    return keys.map((key) => {
      if (key.direction !== "asc" && key.direction !== "desc") {
        throw new Error(`Invalid sort direction: ${JSON.stringify(key.direction)}`);
      }
      checkPath(key.path);
      if (COLUMNS.has(key.path)) {
        // Columns have one type each; the plain NOT NULL columns sort through their indexes.
        const column = sql.ref(`records.${key.path}`);
        if (key.path === "object_version") {
          return { path: key.path, direction: key.direction, type: "number", expr: column };
        }
        const expr = NULLABLE_COLUMNS.has(key.path) ? this.#collateC(sql`coalesce(${column}, '')`) : column;
        return { path: key.path, direction: key.direction, type: "text", expr };
      }
      const doc = sql.ref("records.data");
      const path = this.jsonPath(key.path);
      return key.type === "number"
        ? {
            path: key.path,
            direction: key.direction,
            type: "number",
            expr: sql`coalesce(${this.numberAt(doc, path)}, ${sql.lit(LOWEST)})`,
          }
        : {
            path: key.path,
            direction: key.direction,
            type: "text",
            expr: this.#collateC(sql`coalesce(${this.textAt(doc, path)}, '')`),
          };
    });
  }

  #collateC(expr: Sql): Sql {
    return this.#pg ? sql`(${expr} collate "C")` : expr;
  }

  /**
   * The rows strictly on `side` of `position` in the order of `keys` + seq (and the row itself when
   * `position.inclusive`): k0 > v0 OR (k0 = v0 AND k1 > v1) OR ... OR (all equal AND seq > s), with each `>`
   * turned around for descending keys and for the `before` side. The leading `k0 >= v0` adds nothing
   * logically; it lets the database start an index range scan at the position.
   */
  keyset(keys: SortSpec[], position: Position, side: Side): Condition {
    const lastDirection = keys[keys.length - 1]?.direction ?? "asc";
    const terms: Array<{ expr: Sql; direction: "asc" | "desc"; value: string | number }> = [
      ...keys.map((key, i) => ({
        expr: key.expr,
        direction: key.direction,
        value: position.values[i] ?? "",
      })),
      { expr: sql.ref("records.seq"), direction: lastDirection, value: position.seq },
    ];
    const upward = (direction: "asc" | "desc") => (side === "after") === (direction === "asc");
    const alternatives = terms.map((term, i) => {
      const equal = terms.slice(0, i).map((t) => sql`${t.expr} = ${t.value}`);
      const orEqual = i === terms.length - 1 && position.inclusive ? "=" : "";
      const op = sql.raw(`${upward(term.direction) ? ">" : "<"}${orEqual}`);
      return sql`(${sql.join([...equal, sql`${term.expr} ${op} ${term.value}`], sql` and `)})`;
    });
    const first = terms[0] as (typeof terms)[number];
    const bound = sql`${first.expr} ${sql.raw(upward(first.direction) ? ">=" : "<=")} ${first.value}`;
    return sql<SqlBool>`(${bound} and (${sql.join(alternatives, sql` or `)}))`;
  }
}

/** A filter value for an indexed column: numbers for object_version, text for the rest. */
function columnValue(path: string, value: string | number | boolean): string | number {
  if (path !== "object_version") return String(value);
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isFinite(number)) {
    throw new Error(`object_version compares with numbers, not ${JSON.stringify(value)}`);
  }
  return number;
}

/** A filter value for a JSON field: booleans compare as the text the accessors give ('true' / 'false'). */
function jsonValue(value: string | number | boolean): string | number {
  return typeof value === "boolean" ? String(value) : value;
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`Invalid limit: ${limit}`);
  return limit;
}

// ---------------------------------------------------------------------------------------------------------
// Cursors: base64url JSON of {v: sort values, s: seq, h: list hash, i?: inclusive}

function positionOf(row: Record<string, unknown>, keys: SortSpec[]): Position {
  return {
    values: keys.map((key, i) => (key.type === "number" ? Number(row[`s${i}`]) : String(row[`s${i}`]))),
    seq: Number(row.seq),
  };
}

/** Binds cursors to the list they came from: same kind, filter and sort. */
function listHash(kind: string, filter: Filter | undefined, keys: SortSpec[]): string {
  const list = [kind, filter ?? null, keys.map((k) => [k.path, k.direction, k.type])];
  return createHash("sha256").update(stableJson(list)).digest("base64url").slice(0, 16);
}

/** JSON with object keys sorted, so equal filters hash alike whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function encodeCursor(position: Position, hash: string): string {
  const body = { v: position.values, s: position.seq, h: hash, ...(position.inclusive ? { i: true } : {}) };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

function decodeCursor(cursor: string, hash: string, keys: SortSpec[]): Position {
  const bad = (why: string) => new StoreError("bad_cursor", `Invalid cursor: ${why}`, "cursor");
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad("it does not decode");
  }
  if (body === null || typeof body !== "object") throw bad("it does not decode");
  const { v, s, h, i } = body as { v?: unknown; s?: unknown; h?: unknown; i?: unknown };
  if (h !== hash) throw bad("it belongs to a list with another filter or sort");
  const valid =
    Array.isArray(v) &&
    v.length === keys.length &&
    keys.every((key, n) =>
      key.type === "number" ? typeof v[n] === "number" && Number.isFinite(v[n]) : typeof v[n] === "string",
    ) &&
    typeof s === "number" &&
    Number.isSafeInteger(s) &&
    (i === undefined || i === true);
  if (!valid) throw bad("it does not decode");
  return {
    values: v as Array<string | number>,
    seq: s as number,
    ...(i === true ? { inclusive: true } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Rows to objects, errors

function now(): string {
  return new Date().toISOString();
}

/** `don:...` ids match the id column; anything else is taken as a display id. */
function idColumn(idOrDisplayId: string): "id" | "display_id" {
  return idOrDisplayId.startsWith("don:") ? "id" : "display_id";
}

function toOrg(row: OrgsTable): Org {
  return {
    number: Number(row.number),
    id: row.id,
    name: row.name,
    status: row.status,
    created_date: row.created_date,
  };
}

function toDevUser(row: DevUsersTable): DevUser {
  return {
    type: "dev_user",
    id: row.id,
    display_id: row.display_id,
    display_name: row.display_name,
    email: row.email,
    full_name: row.full_name,
    state: row.state,
    org_id: row.org_id,
    created_date: row.created_date,
  };
}

function toToken(row: TokensTable): TokenRecord {
  return {
    id: row.id,
    display_id: row.display_id,
    org_id: row.org_id,
    subject: row.subject,
    hash: row.hash,
    token_hint: row.token_hint,
    requested_token_type: row.requested_token_type,
    scopes: JSON.parse(row.scopes) as string[],
    client_id: row.client_id,
    status: row.status,
    issued_at: row.issued_at,
    expires_at: row.expires_at,
    created_by: row.created_by,
    created_date: row.created_date,
    modified_by: row.modified_by,
    modified_date: row.modified_date,
    object_version: Number(row.object_version),
  };
}

function toRecord<T extends object>(row: RecordRow): StoredRecord<T> {
  const data = typeof row.data === "string" ? JSON.parse(row.data) : row.data;
  return {
    kind: row.kind,
    id: row.id,
    display_id: row.display_id,
    org_id: row.org_id,
    subtype: row.subtype,
    parent_id: row.parent_id,
    label: row.label,
    external_ref: row.external_ref,
    created_date: row.created_date,
    modified_date: row.modified_date,
    object_version: Number(row.object_version),
    data: data as T & BaseFields,
  };
}

/** Awaits a write, turning a unique-constraint violation into StoreError("conflict") with the field. */
async function rethrowConflict<R>(write: Promise<R>): Promise<R> {
  try {
    return await write;
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

function conflictOf(error: unknown): StoreError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  let what: string;
  if (code === "23505")
    what = String(constraint ?? ""); // PostgreSQL: the index name
  else if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    what = error.message; // SQLite: "UNIQUE constraint failed: records.org_id, records.kind, ..."
  } else return undefined;
  if (what.includes("external_ref")) {
    return new StoreError("conflict", "A record with this external_ref already exists", "external_ref");
  }
  if (what.includes("tag_name") || what.includes("records.label")) {
    return new StoreError("conflict", "A tag with this name already exists", "name");
  }
  if (what.includes("hash"))
    return new StoreError("conflict", "A token with this hash already exists", "hash");
  return new StoreError("conflict", "The record already exists");
}
