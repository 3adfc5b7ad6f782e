// Records: created, read by id or display id (as rows or as their JSON document), updated under a version
// check, deleted, counted and found. The create and update functions run inside a transaction.
import { type AliasableExpression, sql } from "kysely";
import { found, ordered, scope } from "./record-lists.js";
import { idColumn, now, rethrowConflict, toRecord } from "./rows.js";
import { nextNumber, type SqlContext } from "./sql-context.js";
import type { RecordRow } from "./tables.js";
import {
  type Actor,
  type BaseFields,
  type Filter,
  type ListQuery,
  type NewRecord,
  noteDocumentText,
  type RecordJson,
  type StoredRecord,
  StoreError,
} from "./types.js";

/** What an update makes of the current record: its new document and, where given, new columns. */
export type RecordChange<T extends object> = (current: StoredRecord<T>) => {
  data: T;
  label?: string;
  subtype?: string | null;
  parent_id?: string | null;
  external_ref?: string | null;
};

export async function createRecord<T extends object>(
  tx: SqlContext,
  actor: Actor,
  record: NewRecord<T>,
): Promise<StoredRecord<T>> {
  const number = await nextNumber(tx, actor.orgId, record.prefix);
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
    tx.compiled.run("insert record", Object.values(row), () => tx.db.insertInto("records").values(row)),
  );
  noteDocumentText(stored, row.data);
  return stored;
}

export async function getRecord<T extends object>(
  ctx: SqlContext,
  orgId: string,
  kinds: string[],
  idOrDisplayId: string,
): Promise<StoredRecord<T> | undefined> {
  const column = idColumn(idOrDisplayId);
  const [row] = await ctx.compiled.run<RecordRow>(
    `record by ${column} of ${kinds.length} kinds`,
    [orgId, ...kinds, idOrDisplayId],
    () => byId(ctx, orgId, kinds, column, idOrDisplayId).selectAll(),
  );
  return row && toRecord<T>(row);
}

export async function getRecordJson(
  ctx: SqlContext,
  orgId: string,
  kinds: string[],
  idOrDisplayId: string,
): Promise<RecordJson | undefined> {
  const column = idColumn(idOrDisplayId);
  const [row] = await ctx.compiled.run<RecordJson>(
    `record json by ${column} of ${kinds.length} kinds`,
    [orgId, ...kinds, idOrDisplayId],
    () =>
      byId(ctx, orgId, kinds, column, idOrDisplayId).select([
        "id",
        "kind",
        "subtype",
        ctx.x.documentJson(sql.ref("data")).as("json"),
      ]),
  );
  return row;
}

/** The record of `kinds` (any kind when empty) with this id or display id; the oldest if several. */
function byId(
  { db }: SqlContext,
  orgId: string,
  kinds: string[],
  column: "id" | "display_id",
  value: string,
) {
  return (
    db
      .selectFrom("records")
      .where("org_id", "=", orgId)
      .$if(kinds.length > 0, (q) => q.where("kind", "in", kinds))
      .where(column, "=", value)
      .orderBy("seq")
      // A literal: SQLite plans a statement whose LIMIT is a bound parameter again on every run.
      .limit(sql.lit(1))
  );
}

export async function updateRecord<T extends object>(
  tx: SqlContext,
  actor: Actor,
  kind: string,
  id: string,
  change: RecordChange<T>,
): Promise<StoredRecord<T>> {
  // PostgreSQL locks the row for the transaction (FOR UPDATE); SQLite transactions hold the write lock
  // from BEGIN IMMEDIATE. The version check in the UPDATE guards anyway: on a lost race, read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await tx.db
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
      tx.db
        .updateTable("records")
        .set({ ...columns, data: JSON.stringify(data) })
        .where("id", "=", current.id)
        .where("object_version", "=", current.object_version)
        .executeTakeFirst(),
    );
    if (Number(result.numUpdatedRows) === 1) return { ...current, ...columns, data };
  }
  throw new StoreError("version_mismatch", `${kind} ${id} was changed concurrently; try again`);
}

export async function deleteRecord(
  { db }: SqlContext,
  actor: Actor,
  kind: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("records")
    .where("org_id", "=", actor.orgId)
    .where("kind", "=", kind)
    .where(idColumn(id), "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countRecords(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  filter?: Filter,
): Promise<number> {
  const row = await scope(ctx, orgId, kind, filter)
    .select(sql<number | string>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findRecords<T extends object>(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: Omit<ListQuery, "cursor" | "mode">,
): Promise<Array<StoredRecord<T>>> {
  const rows = await found(ctx, orgId, kind, query).selectAll("records").execute();
  return rows.map((row) => toRecord<T>(row as RecordRow));
}

/**
 * The documents of the records findRecords finds as the JSON `{"<key>":[<document>,...]}`, in chunks of
 * UTF-8 bytes: on a SQLite file read row by row while they are sent (./document-streams.ts), elsewhere (in
 * a transaction, in memory, on PostgreSQL) joined by the database into one chunk (see
 * Expressions.joinedDocuments).
 */
export async function findRecordJson(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: Omit<ListQuery, "cursor" | "mode">,
  key: string,
): Promise<Iterable<Buffer> | AsyncIterable<Buffer>> {
  const keys = ctx.x.sortKeys(query.sort);
  const before = `{${JSON.stringify(key)}:[`;
  const after = "]}";
  /** The found rows in order: the document as `json` (first: a stream reads that column alone), then the keys. */
  const documents = (json: AliasableExpression<unknown>) =>
    ordered(
      scope(ctx, orgId, kind, query.filter).select([json.as("json"), "records.seq"]),
      keys,
      false,
    ).limit(ctx.x.limit(query.limit));
  if (ctx.streams && !ctx.db.isTransaction) {
    return ctx.streams.open(documents(sql`cast(records.data as blob)`).compile(), before, after);
  }
  const { body } = await ctx.db
    .selectFrom(documents(sql.ref("records.data")).as("found"))
    .select(ctx.x.joinedDocuments(sql.ref("found.json"), keys, before, after).as("body"))
    .executeTakeFirstOrThrow();
  return [typeof body === "string" ? Buffer.from(body) : (body as Buffer)];
}
