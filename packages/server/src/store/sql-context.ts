// What the store's queries run with: the Kysely handle (the database, or a transaction of it), the dialect's
// expressions and the compiled queries, and the per-organization counters every new row numbers itself from.
import { type Kysely, sql } from "kysely";
import type { CompiledQueries } from "./compiled-queries.js";
import type { Expressions } from "./expressions.js";
import type { DialectName } from "./migrations.js";
import type { DB } from "./tables.js";

export interface SqlContext {
  readonly db: Kysely<DB>;
  readonly dialect: DialectName;
  readonly x: Expressions;
  readonly compiled: CompiledQueries;
}

/** The next number of a per-organization sequence, atomically (the row stays locked until commit). */
export async function nextNumber(ctx: SqlContext, orgId: string, prefix: string): Promise<number> {
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
