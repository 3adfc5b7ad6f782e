// What the store's queries run with: the Kysely handle (the database, or a transaction of it), the dialect's
// expressions and the compiled queries, the per-organization counters every new row numbers itself from, and
// named locks that serialize a transaction with the same one in every other process.
import { type Kysely, sql } from "kysely";
import type { CompiledQueries } from "./compiled-queries.js";
import type { DialectName } from "./dialect.js";
import type { SqliteDocumentStreams } from "./document-streams.js";
import type { Expressions } from "./expressions.js";
import type { ListShapes } from "./list-shapes.js";
import type { TransactionNumbers } from "./numbers.js";
import type { DB } from "./tables.js";

export interface SqlContext {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  readonly x: Expressions;
  /** The shapes and values of list queries, which run compiled once per shape. */
  readonly shapes: ListShapes;
  readonly compiled: CompiledQueries;
  /** On a SQLite file: answers of thousands of documents read while they are sent. */
  readonly streams?: SqliteDocumentStreams;
  /** In a PostgreSQL transaction: numbers taken outside it (./numbers.ts). */
  readonly numbers?: TransactionNumbers;
}

/**
 * The next number of a per-organization sequence, atomically: on PostgreSQL outside the transaction when it
 * can be (./numbers.ts), else in it (the row then stays locked until commit).
 */
export async function nextNumber(ctx: SqlContext, orgId: string, prefix: string): Promise<number> {
  const outside = await ctx.numbers?.next(orgId, prefix);
  if (outside !== undefined) return outside;
  const [row] = await ctx.compiled.run<{ value: number }>("next number", [orgId, prefix, 1], () =>
    ctx.db
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

/**
 * Inside a transaction: waits until no other transaction, in this process or another, holds the lock `name`,
 * then holds it until this transaction ends. On PostgreSQL that is a transaction-level advisory lock keyed by
 * the schema and `name` (stores in other schemas of the database do not wait for each other); on SQLite there
 * is nothing more to take: a transaction begins with BEGIN IMMEDIATE, which holds the database's one write
 * lock until it ends, so a transaction that reads and then writes already runs alone.
 */
export async function holdLock(ctx: SqlContext, name: string): Promise<void> {
  if (!ctx.db.isTransaction) throw new Error(`the lock ${name} is held by a transaction; none is open`);
  if (ctx.dialect !== "postgres") return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${`:${name}`}))`.execute(ctx.db);
}
