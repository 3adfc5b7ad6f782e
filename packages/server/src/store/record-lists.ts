// Reading records of one organization and family: the filtered scope, the sorted finds, and the keyset
// pagination of the list operations.
import { type SelectQueryBuilder, sql } from "kysely";
import { decodeCursor, encodeCursor, listHash, type Position, positionOf } from "./cursors.js";
import { checkLimit, type Side, type SortSpec, sortedBy } from "./expressions.js";
import { toRecord } from "./rows.js";
import type { SqlContext } from "./sql-context.js";
import type { DB, RecordRow } from "./tables.js";
import type { Filter, ListQuery, Page, PageOf } from "./types.js";

/** The columns a page selects, named in the shape of its query. */
interface Columns {
  name: string;
  select(scope: SelectQueryBuilder<DB, "records", object>): SelectQueryBuilder<DB, "records", object>;
}
type Row = RecordRow & Record<string, unknown>;

/** The records of one organization and family that match `filter`. */
export function scope({ db, x }: SqlContext, orgId: string, kind: string, filter: Filter | undefined) {
  return db
    .selectFrom("records")
    .where("org_id", "=", orgId)
    .where("kind", "=", kind)
    .$if(filter !== undefined, (q) => q.where(x.filter(filter as Filter)));
}

/** The matching records in sort order (then seq), at most `limit`: what both finds read. */
export function found(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: Omit<ListQuery, "cursor" | "mode">,
) {
  const keys = ctx.x.sortKeys(query.sort);
  const sorted = sortedBy(scope(ctx, orgId, kind, query.filter), keys, false, (key) => key.expr);
  return sorted.limit(ctx.x.limit(query.limit));
}

/**
 * Keyset pagination. A position is a row's sort values plus its seq; `after` reads forwards from the
 * cursor's position, `before` reads backwards (reversed order, then flipped back). One query reads the page
 * (limit + 1 rows: the extra one says whether more lie that way) and, when a cursor was given, one EXISTS
 * query says whether rows lie the other way.
 */
export function listRecords<T extends object>(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: ListQuery,
): Promise<Page<T>> {
  return page(
    ctx,
    orgId,
    kind,
    query,
    { name: "records", select: (scope) => scope.selectAll("records") },
    (row) => toRecord<T>(row),
  );
}

/** The same pages, each record as the JSON text of its document. */
export function listRecordJson(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: ListQuery,
): Promise<PageOf<string>> {
  return page(
    ctx,
    orgId,
    kind,
    query,
    {
      name: "json",
      select: (scope) =>
        scope.select(["records.seq", ctx.x.documentJson(sql.ref("records.data")).as("json")]),
    },
    (row) => row.json as string,
  );
}

async function page<Item>(
  ctx: SqlContext,
  orgId: string,
  kind: string,
  query: ListQuery,
  columns: Columns,
  toItem: (row: Row) => Item,
): Promise<PageOf<Item>> {
  const { x, shapes } = ctx;
  const limit = checkLimit(query.limit);
  const keys = x.sortKeys(query.sort);
  // What binds a cursor to this list; worked out only when a cursor is read or handed out.
  let hash: string | undefined;
  const listId = () => (hash ??= listHash(kind, query.filter, keys));
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, listId(), keys);
  const forward = (query.mode ?? "after") === "after";
  const side: Side = forward ? "after" : "before";
  const otherSide: Side = forward ? "before" : "after";

  // The page's query, compiled once per shape (see ./list-shapes.ts), its values in the order of its SQL:
  // the sort values selected, then the scope, the filter, the cursor's keyset and the LIMIT.
  const values: unknown[] = [];
  const sorted = shapes.sortKeys(keys, values);
  values.push(orgId, kind);
  const filtered = query.filter === undefined ? "" : shapes.filter(query.filter, values);
  const from = cursor ? shapes.keyset(keys, cursor, side, values) : "";
  const limited = shapes.limit(limit + 1, values);
  const rows = await ctx.compiled.run<Row>(
    `page ${columns.name} ${side} [${sorted}] (${filtered}) ${from} ${limited}`,
    values,
    () => {
      const pageQuery = ordered(columns.select(scope(ctx, orgId, kind, query.filter)), keys, !forward);
      return (cursor ? pageQuery.where(x.keyset(keys, cursor, side)) : pageQuery).limit(x.limit(limit + 1));
    },
  );
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
    const start = edge ?? { ...cursor, inclusive: !cursor.inclusive };
    const beyond: unknown[] = [orgId, kind];
    const shape = `beyond (${query.filter === undefined ? "" : shapes.filter(query.filter, beyond)}) [${sorted}] ${shapes.keyset(keys, start, otherSide, beyond)} ${shapes.limit(1, beyond)}`;
    const [found] = await ctx.compiled.run(shape, beyond, () =>
      scope(ctx, orgId, kind, query.filter)
        .select(sql<number>`1`.as("one"))
        .where(x.keyset(keys, start, otherSide))
        .limit(x.limit(1)),
    );
    if (found) back = start;
  }
  const ahead = more ? (forward ? positions[positions.length - 1] : positions[0]) : undefined;

  const result: PageOf<Item> = { items: pageRows.map(toItem) };
  const nextPosition = forward ? ahead : back;
  const prevPosition = forward ? back : ahead;
  if (nextPosition) result.next_cursor = encodeCursor(nextPosition, listId());
  if (prevPosition) result.prev_cursor = encodeCursor(prevPosition, listId());
  return result;
}

/** Adds the sort values (s0, s1, ...) to the selected columns, ordered by the keys and then seq. */
export function ordered(
  scope: SelectQueryBuilder<DB, "records", object>,
  keys: SortSpec[],
  reverse: boolean,
): SelectQueryBuilder<DB, "records", Row> {
  const query = scope.select(keys.map((key, i) => key.expr.as(`s${i}`))) as SelectQueryBuilder<
    DB,
    "records",
    Row
  >;
  return sortedBy(query, keys, reverse, (_, i) => sql.ref(`s${i}`));
}
