// The store over SQL: one class, SqlStore, runs over a Kysely handle: the root store over the database, a
// transaction's store over the Transaction. Where the two SQL dialects differ it asks ./expressions.ts;
// everything a caller supplies reaches the database as a bound parameter. The class holds the transactions,
// the lifecycle and the caches; the queries are in the modules of each concern (./orgs-and-users.ts,
// ./tokens.ts, ./records.ts, ./record-lists.ts), which run on the store's SqlContext.
import type { Kysely } from "kysely";
import type { Changes, Snapshot } from "./changes.js";
import { CompiledQueries } from "./compiled-queries.js";
import { type CredentialsCache, readCredentials } from "./credentials.js";
import type { DialectName } from "./dialect.js";
import type { SqliteDocumentStreams } from "./document-streams.js";
import { Expressions } from "./expressions.js";
import { CREDENTIALS, copied, type KeptRecords, oneRecordRead, type Reader } from "./kept-records.js";
import { ListShapes } from "./list-shapes.js";
import type { NumbersOutside } from "./numbers.js";
import * as orgs from "./orgs-and-users.js";
import * as lists from "./record-lists.js";
import * as records from "./records.js";
import { SandboxStore } from "./sandboxes.js";
import { holdLock, type SqlContext } from "./sql-context.js";
import { updateStatistics } from "./statistics.js";
import type { DB } from "./tables.js";
import * as tokens from "./tokens.js";
import type {
  Actor,
  Credentials,
  DevUser,
  Filter,
  ListQuery,
  NewRecord,
  Org,
  Page,
  PageOf,
  RecordJson,
  Store,
  StoredRecord,
  TokenRecord,
} from "./types.js";

/** How many times a transaction PostgreSQL ended as a deadlock's victim, or as unserializable, runs again. */
const RETRIES = 4;

export class SqlStore implements Store {
  readonly #db: Kysely<DB>;
  readonly #compiled: CompiledQueries;
  readonly #ctx: SqlContext;
  /**
   * In a transaction's store: whether it has written, or waited for a lock (`holdLock`), after which it may see
   * commits newer than its request's counts; then PostgreSQL uses nothing kept (see `kept`). Each method that
   * does either marks it (`#writing`): the statements alone do not tell, as a lock is taken by a SELECT.
   */
  #wrote = false;

  constructor(
    db: Kysely<DB>,
    readonly dialect: DialectName,
    private readonly credentialsCache?: CredentialsCache,
    compiled?: CompiledQueries,
    /** The records kept between reads (./kept-records.ts), shared by the root store and its transactions' stores. */
    private readonly kept?: KeptRecords,
    /** What has been committed (the root store of a SQLite file or of PostgreSQL). */
    readonly changes?: Changes,
    streams?: SqliteDocumentStreams,
    /** On PostgreSQL: where transactions take display ids' numbers (./numbers.ts). */
    private readonly numbers?: NumbersOutside,
    /** In a transaction's store: the counts its request read after it arrived (see ./kept-records.ts). */
    private readonly at?: Snapshot,
  ) {
    this.#db = db;
    this.#compiled = compiled ?? new CompiledQueries(db);
    this.#ctx = {
      db,
      dialect,
      x: new Expressions(dialect),
      shapes: new ListShapes(dialect === "postgres"),
      compiled: this.#compiled,
      ...(streams ? { streams } : {}),
      ...(numbers && db.isTransaction ? { numbers: numbers.forTransaction() } : {}),
    };
  }

  /**
   * Runs `fn` in a transaction, or directly when this store already is one. While a SQLite transaction runs,
   * other calls on the root store wait for it (one connection), so inside `fn` use `tx` only.
   */
  #inTx<R>(fn: (store: SqlStore) => Promise<R>, at?: Snapshot): Promise<R> {
    if (this.#db.isTransaction) return fn(this);
    // What is kept hears of a rollback before the connection runs anything else (see KeptRecords.rolledBack).
    const rolledBack = (error: unknown): never => {
      this.kept?.rolledBack();
      throw error;
    };
    return this.#db
      .transaction()
      .execute((trx) =>
        fn(
          new SqlStore(
            trx,
            this.dialect,
            undefined,
            this.#compiled.on(trx),
            this.kept,
            undefined,
            undefined,
            this.numbers,
            at,
          ),
        ).catch(rolledBack),
      )
      .catch(rolledBack);
  }

  /** Marks this transaction's store as having written (see `#reader`), and answers it. */
  #writing(): this {
    this.#wrote = true;
    return this;
  }

  /** Where this store reads, for the kept records (./kept-records.ts). */
  #reader(): Reader {
    return { inTransaction: this.#db.isTransaction, wrote: this.#wrote, at: this.at };
  }

  /**
   * On PostgreSQL, a transaction the database ended to break a deadlock, or to keep its snapshot serializable,
   * is run again (`fn` from the start, on a new transaction), up to RETRIES times, a few milliseconds apart:
   * it did nothing, and the caller should not see what is the database's choice of victim. The counts'
   * locks are taken in one order at commit (./postgres-changes.ts), so what is left are transactions of one
   * organization that lock the same rows in opposite orders.
   */
  async transaction<R>(fn: (tx: Store) => Promise<R>, at?: Snapshot): Promise<R> {
    if (this.dialect !== "postgres" || this.#db.isTransaction) return this.#inTx(fn, at);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#inTx(fn, at);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= RETRIES || (code !== "40P01" && code !== "40001")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 8 * (attempt + 1)));
      }
    }
  }

  holdLock(name: string): Promise<void> {
    return holdLock(this.#writing().#ctx, name);
  }

  async close(): Promise<void> {
    if (this.#db.isTransaction) throw new Error("close() is for the root store, not a transaction");
    this.#ctx.streams?.close();
    await this.changes?.close?.();
    await this.numbers?.close();
    await this.#db.destroy();
  }

  updateStatistics(): Promise<void> {
    return updateStatistics(this.#db, this.dialect);
  }

  sandboxes(): SandboxStore {
    return new SandboxStore(this.#writing().#ctx);
  }

  // Organizations and dev users ---------------------------------------------------------------------------

  createOrg(name: string): Promise<Org> {
    return this.#writing().#inTx((tx) => orgs.createOrg(tx.#ctx, name));
  }

  getOrg(id: string): Promise<Org | undefined> {
    return orgs.getOrg(this.#ctx, id);
  }

  listOrgs(): Promise<Org[]> {
    return orgs.listOrgs(this.#ctx);
  }

  setOrgStatus(id: string, status: Org["status"]): Promise<void> {
    return orgs.setOrgStatus(this.#writing().#ctx, id, status);
  }

  createDevUser(
    org: Org,
    fields: { email: string; full_name: string; display_name?: string },
  ): Promise<DevUser> {
    return this.#writing().#inTx((tx) => orgs.createDevUser(tx.#ctx, org, fields));
  }

  async getDevUser(orgId: string, id: string): Promise<DevUser | undefined> {
    const read = () => orgs.getDevUser(this.#ctx, orgId, id);
    if (!this.kept) return read();
    const key = `user\n${orgId}\n${id}`;
    return copied(await this.kept.through(this.#reader(), key, { families: [CREDENTIALS] }, read));
  }

  listDevUsers(orgId: string): Promise<DevUser[]> {
    return orgs.listDevUsers(this.#ctx, orgId);
  }

  // Tokens and credentials --------------------------------------------------------------------------------

  createToken(actor: Actor, fields: tokens.NewToken): Promise<TokenRecord> {
    return this.#writing().#inTx((tx) => tokens.createToken(tx.#ctx, actor, fields));
  }

  findTokenByHash(hash: string): Promise<TokenRecord | undefined> {
    return tokens.findTokenByHash(this.#ctx, hash);
  }

  async findCredentials(hash: string, at?: Snapshot): Promise<Credentials | undefined> {
    // On every request, through the unique index on hash; a file-backed SQLite store keeps the answer while
    // the database is unchanged (see CredentialsCache), so a revocation is still seen by the next request.
    const read = () => readCredentials(this.#compiled, this.#db, hash);
    return this.credentialsCache ? this.credentialsCache.through(hash, read, at) : read();
  }

  getToken(orgId: string, id: string): Promise<TokenRecord | undefined> {
    return tokens.getToken(this.#ctx, orgId, id);
  }

  listTokens(
    orgId: string,
    filter: { subject: string; requested_token_type?: string; client_id?: string },
  ): Promise<TokenRecord[]> {
    return tokens.listTokens(this.#ctx, orgId, filter);
  }

  revokeToken(actor: Actor, id: string): Promise<TokenRecord> {
    return this.#writing().#inTx((tx) => tokens.revokeToken(tx.#ctx, actor, id));
  }

  // Records -----------------------------------------------------------------------------------------------

  createRecord<T extends object>(actor: Actor, record: NewRecord<T>): Promise<StoredRecord<T>> {
    return this.#writing().#inTx((tx) => records.createRecord(tx.#ctx, actor, record));
  }

  async getRecord<T extends object>(
    orgId: string,
    kinds: string[],
    idOrDisplayId: string,
  ): Promise<StoredRecord<T> | undefined> {
    const read = () => records.getRecord<T>(this.#ctx, orgId, kinds, idOrDisplayId);
    const [kind] = kinds;
    if (kinds.length !== 1 || kind === undefined || !this.kept?.keeps(kind)) return read();
    const key = `record\n${kind}\n${orgId}\n${idOrDisplayId}`;
    return copied(await this.kept.through(this.#reader(), key, oneRecordRead(kind, idOrDisplayId), read));
  }

  getRecordJson(orgId: string, kinds: string[], idOrDisplayId: string): Promise<RecordJson | undefined> {
    return records.getRecordJson(this.#ctx, orgId, kinds, idOrDisplayId);
  }

  updateRecord<T extends object>(
    actor: Actor,
    kind: string,
    id: string,
    change: records.RecordChange<T>,
  ): Promise<StoredRecord<T>> {
    return this.#writing().#inTx((tx) => records.updateRecord(tx.#ctx, actor, kind, id, change));
  }

  deleteRecord(actor: Actor, kind: string, id: string): Promise<boolean> {
    return records.deleteRecord(this.#writing().#ctx, actor, kind, id);
  }

  countRecords(orgId: string, kind: string, filter?: Filter): Promise<number> {
    return records.countRecords(this.#ctx, orgId, kind, filter);
  }

  findRecords<T extends object>(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
  ): Promise<Array<StoredRecord<T>>> {
    return records.findRecords<T>(this.#ctx, orgId, kind, query);
  }

  findBySubtype<T extends object>(
    orgId: string,
    kind: string,
    subtype: string,
  ): Promise<ReadonlyArray<StoredRecord<T>>> {
    const read = () =>
      this.findRecords<T>(orgId, kind, {
        filter: { op: "eq", path: "subtype", value: subtype },
        limit: 1000,
      });
    if (!this.kept?.keeps(kind)) return read();
    // One entry per kind, organization and subtype; served frozen, as the caller may not change it.
    const key = `subtype\n${kind}\n${orgId}\n${subtype}`;
    return this.kept.through(this.#reader(), key, { families: [kind] }, read);
  }

  findRecordJson(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
    key: string,
  ): Promise<Iterable<Buffer> | AsyncIterable<Buffer>> {
    return records.findRecordJson(this.#ctx, orgId, kind, query, key);
  }

  listRecords<T extends object>(orgId: string, kind: string, query: ListQuery): Promise<Page<T>> {
    return lists.listRecords<T>(this.#ctx, orgId, kind, query);
  }

  listRecordJson(orgId: string, kind: string, query: ListQuery): Promise<PageOf<string>> {
    return lists.listRecordJson(this.#ctx, orgId, kind, query);
  }
}
