// The store over SQL: one class, SqlStore, runs over a Kysely handle: the root store over the database, a
// transaction's store over the Transaction. Where the two SQL dialects differ it asks ./expressions.ts;
// everything a caller supplies reaches the database as a bound parameter.
import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { DEV_USER_IDS, TOKEN_IDS } from "../core/record-families.js";
import { CompiledQueries } from "./compiled-queries.js";
import { type CredentialsCache, readCredentials } from "./credentials.js";
import { decodeCursor, encodeCursor, listHash, type Position, positionOf } from "./cursors.js";
import { checkLimit, Expressions, type Side, type SortSpec, sortedBy } from "./expressions.js";
import type { KeptRecords } from "./kept-records.js";
import type { DialectName } from "./migrations.js";
import { idColumn, now, rethrowConflict, toDevUser, toOrg, toRecord, toToken } from "./rows.js";
import type { DB, DevUsersTable, RecordRow, TokensTable } from "./tables.js";
import {
  type Actor,
  type BaseFields,
  type Credentials,
  type DevUser,
  type Filter,
  type ListQuery,
  type NewRecord,
  type Org,
  type Page,
  type PageOf,
  type RecordJson,
  type Store,
  type StoredRecord,
  StoreError,
  type TokenRecord,
} from "./types.js";

const ORG_COUNTER = { orgId: "", prefix: "ORG" };

export class SqlStore implements Store {
  readonly #db: Kysely<DB>;
  readonly #x: Expressions;
  readonly #compiled: CompiledQueries;

  constructor(
    db: Kysely<DB>,
    readonly dialect: DialectName,
    private readonly credentialsCache?: CredentialsCache,
    compiled?: CompiledQueries,
    private readonly kept?: KeptRecords,
  ) {
    this.#db = db;
    this.#x = new Expressions(dialect);
    this.#compiled = compiled ?? new CompiledQueries(db);
  }

  /**
   * Runs `fn` in a transaction, or directly when this store already is one. While a SQLite transaction runs,
   * other calls on the root store wait for it (one connection), so inside `fn` use `tx` only.
   */
  #inTx<R>(fn: (store: SqlStore) => Promise<R>): Promise<R> {
    if (this.#db.isTransaction) return fn(this);
    return this.#db
      .transaction()
      .execute((trx) => fn(new SqlStore(trx, this.dialect, undefined, this.#compiled.on(trx), this.kept)));
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
    const [row] = await this.#compiled.run<{ value: number }>("next number", [orgId, prefix, 1], () =>
      this.#db
        .insertInto("counters")
        .values({ org_id: orgId, prefix, value: 1 })
        .onConflict((oc) =>
          oc.columns(["org_id", "prefix"]).doUpdateSet({ value: sql<number>`counters.value + 1` }),
        )
        .returning("value"),
    );
    if (!row) throw new Error(`no number counted for ${prefix}`);
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
      const number = await tx.#nextNumber(org.id, DEV_USER_IDS.prefix);
      const row: DevUsersTable = {
        id: `don:core:workapi:devo/${org.number}:${DEV_USER_IDS.idType}/${number}`,
        org_id: org.id,
        number,
        display_id: `${DEV_USER_IDS.prefix}-${number}`,
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
    const column = idColumn(id);
    const [row] = await this.#compiled.run<DevUsersTable>(`dev user by ${column}`, [orgId, id], () =>
      this.#db.selectFrom("dev_users").selectAll().where("org_id", "=", orgId).where(column, "=", id),
    );
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
      const number = await tx.#nextNumber(actor.orgId, TOKEN_IDS.prefix);
      const time = now();
      const row: TokensTable = {
        id: `don:core:workapi:devo/${actor.orgNumber}:${TOKEN_IDS.idType}/${number}`,
        org_id: actor.orgId,
        number,
        display_id: `${TOKEN_IDS.prefix}-${number}`,
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

  async findCredentials(hash: string): Promise<Credentials | undefined> {
    // On every request, through the unique index on hash; a file-backed SQLite store keeps the answer while
    // the database is unchanged (see CredentialsCache), so a revocation is still seen by the next request.
    const read = () => readCredentials(this.#compiled, this.#db, hash);
    return this.credentialsCache ? this.credentialsCache.through(hash, read) : read();
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
      const row = { ...stored, data: JSON.stringify(data) };
      await rethrowConflict(
        tx.#compiled.run("insert record", Object.values(row), () => tx.#db.insertInto("records").values(row)),
      );
      return stored;
    });
  }

  async getRecord<T extends object>(
    orgId: string,
    kinds: string[],
    idOrDisplayId: string,
  ): Promise<StoredRecord<T> | undefined> {
    const column = idColumn(idOrDisplayId);
    const [row] = await this.#compiled.run<RecordRow>(
      `record by ${column} of ${kinds.length} kinds`,
      [orgId, ...kinds, idOrDisplayId],
      () => this.#byId(orgId, kinds, column, idOrDisplayId).selectAll(),
    );
    return row && toRecord<T>(row);
  }

  async getRecordJson(
    orgId: string,
    kinds: string[],
    idOrDisplayId: string,
  ): Promise<RecordJson | undefined> {
    const column = idColumn(idOrDisplayId);
    const [row] = await this.#compiled.run<RecordJson>(
      `record json by ${column} of ${kinds.length} kinds`,
      [orgId, ...kinds, idOrDisplayId],
      () =>
        this.#byId(orgId, kinds, column, idOrDisplayId).select([
          "id",
          "kind",
          "subtype",
          this.#x.documentJson(sql.ref("data")).as("json"),
        ]),
    );
    return row;
  }

  /** The record of `kinds` (any kind when empty) with this id or display id; the oldest if several. */
  #byId(orgId: string, kinds: string[], column: "id" | "display_id", value: string) {
    return (
      this.#db
        .selectFrom("records")
        .where("org_id", "=", orgId)
        .$if(kinds.length > 0, (q) => q.where("kind", "in", kinds))
        .where(column, "=", value)
        .orderBy("seq")
        // A literal: SQLite plans a statement whose LIMIT is a bound parameter again on every run.
        .limit(sql.lit(1))
    );
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
    const rows = await this.#found(orgId, kind, query).selectAll("records").execute();
    return rows.map((row) => toRecord<T>(row as RecordRow));
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
    // One entry per kind, organization and subtype.
    return this.kept.through(kind, `${kind}\n${orgId}\n${subtype}`, this.#db.isTransaction, read);
  }

  async findRecordJson(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
  ): Promise<Buffer[]> {
    const rows = await this.#found(orgId, kind, query)
      .select(this.#x.documentBytes(sql.ref("records.data")).as("json"))
      .execute();
    return rows.map(({ json }) => (typeof json === "string" ? Buffer.from(json) : (json as Buffer)));
  }

  /** The matching records in sort order (then seq), at most `limit`: what both finds read. */
  #found(orgId: string, kind: string, query: Omit<ListQuery, "cursor" | "mode">) {
    const keys = this.#x.sortKeys(query.sort);
    const sorted = sortedBy(this.#scope(orgId, kind, query.filter), keys, false, (key) => key.expr);
    return sorted.limit(this.#x.limit(query.limit));
  }

  /**
   * Keyset pagination. A position is a row's sort values plus its seq; `after` reads forwards from the
   * cursor's position, `before` reads backwards (reversed order, then flipped back). One query reads the page
   * (limit + 1 rows: the extra one says whether more lie that way) and, when a cursor was given, one EXISTS
   * query says whether rows lie the other way.
   */
  listRecords<T extends object>(orgId: string, kind: string, query: ListQuery): Promise<Page<T>> {
    return this.#page(
      orgId,
      kind,
      query,
      (scope) => scope.selectAll("records"),
      (row) => toRecord<T>(row),
    );
  }

  listRecordJson(orgId: string, kind: string, query: ListQuery): Promise<PageOf<string>> {
    return this.#page(
      orgId,
      kind,
      query,
      (scope) => scope.select(["records.seq", this.#x.documentJson(sql.ref("records.data")).as("json")]),
      (row) => row.json as string,
    );
  }

  async #page<Item>(
    orgId: string,
    kind: string,
    query: ListQuery,
    columns: (scope: SelectQueryBuilder<DB, "records", object>) => SelectQueryBuilder<DB, "records", object>,
    toItem: (row: RecordRow & Record<string, unknown>) => Item,
  ): Promise<PageOf<Item>> {
    const limit = checkLimit(query.limit);
    const keys = this.#x.sortKeys(query.sort);
    // What binds a cursor to this list; worked out only when a cursor is read or handed out.
    let hash: string | undefined;
    const listId = () => (hash ??= listHash(kind, query.filter, keys));
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, listId(), keys);
    const forward = (query.mode ?? "after") === "after";
    const side: Side = forward ? "after" : "before";
    const otherSide: Side = forward ? "before" : "after";

    let pageQuery = this.#ordered(columns(this.#scope(orgId, kind, query.filter)), keys, !forward);
    if (cursor) pageQuery = pageQuery.where(this.#x.keyset(keys, cursor, side));
    const rows = await pageQuery.limit(this.#x.limit(limit + 1)).execute();
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
        .limit(this.#x.limit(1))
        .executeTakeFirst();
      if (found) back = from;
    }
    const ahead = more ? (forward ? positions[positions.length - 1] : positions[0]) : undefined;

    const page: PageOf<Item> = { items: pageRows.map(toItem) };
    const nextPosition = forward ? ahead : back;
    const prevPosition = forward ? back : ahead;
    if (nextPosition) page.next_cursor = encodeCursor(nextPosition, listId());
    if (prevPosition) page.prev_cursor = encodeCursor(prevPosition, listId());
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

  /** Adds the sort values (s0, s1, ...) to the selected columns, ordered by the keys and then seq. */
  #ordered(
    scope: SelectQueryBuilder<DB, "records", object>,
    keys: SortSpec[],
    reverse: boolean,
  ): SelectQueryBuilder<DB, "records", RecordRow & Record<string, unknown>> {
    const query = scope.select(keys.map((key, i) => key.expr.as(`s${i}`))) as SelectQueryBuilder<
      DB,
      "records",
      RecordRow & Record<string, unknown>
    >;
    return sortedBy(query, keys, reverse, (_, i) => sql.ref(`s${i}`));
  }
}
