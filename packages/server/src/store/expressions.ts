// SQL expressions: filters, sort keys and keyset conditions. Where SQLite and PostgreSQL differ (JSON access,
// collation, row locks), the Expressions class builds the right fragment.
import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from "kysely";
import type { Position } from "./cursors.js";
import type { DialectName } from "./dialect.js";
import type { DB } from "./tables.js";
import type { Filter, SortKey } from "./types.js";

type Sql = RawBuilder<unknown>;
type Condition = RawBuilder<SqlBool>;
export type Side = "after" | "before";

export interface SortSpec {
  path: string;
  direction: "asc" | "desc";
  type: "text" | "number";
  /** The value sorted on; never NULL (missing values become '' or LOWEST). */
  expr: Sql;
}

/** Longest IN list written out with one parameter per value; a longer one is bound as a single array. */
export const INLINE_LIST_MAX = 500;

/** Columns that `Filter` and `SortKey` paths may name directly. */
export const COLUMNS = new Set([
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
export const PATH = /^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$/i;
/** Where missing numbers sort: below every real number, and still representable in JSON (the cursor). */
const LOWEST = -Number.MAX_VALUE;
export const OPERATORS = { eq: "=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** The value a JSON path is bound as: `$.a.b` (SQLite) or `{a,b}` (PostgreSQL). */
export function jsonPathValue(path: string, pg: boolean): string {
  checkPath(path);
  return pg ? `{${path.split(".").join(",")}}` : `$.${path}`;
}

export function checkPath(path: string): string {
  if (!PATH.test(path)) throw new Error(`Invalid field path: ${JSON.stringify(path)}`);
  return path;
}

export class Expressions {
  readonly #pg: boolean;

  constructor(dialect: DialectName) {
    this.#pg = dialect === "postgres";
  }

  // JSON access. `doc` is a JSON document expression, `path` one made by jsonPath(). Each accessor yields
  // the value only when it has the wanted JSON type (NULL otherwise), so both databases compare alike.

  /**
   * A stored JSON document as text that can be sent: SQLite's stored text as it is (read as bytes instead, a
   * Buffer per row cost more than decoding the text); PostgreSQL's jsonb printed as text.
   */
  documentJson(doc: Sql): Sql {
    return this.#pg ? sql`${doc}::text` : doc;
  }

  /**
   * `before` + the JSON documents `doc` of the rows of the subquery `found`, joined by commas in its order
   * (its sort keys selected as s0, s1, ... and seq, as `keys` say) + `after`, by the database: an answer of
   * thousands (an export) comes back as one value, not a row per document that Node then joins. SQLite's
   * value is the UTF-8 bytes of its stored text (a blob), which go out as they are: 5,000 works (10 MB) took
   * about 50 ms against about 86 ms for a blob per row joined here. Its group_concat takes the rows in the
   * subquery's order: SQLite never flattens a subquery with ORDER BY into an aggregate, for that reason
   * (restriction 16 of its query flattener, ticket #2942), while an ORDER BY inside group_concat would sort
   * the 10 MB again (126 ms). PostgreSQL prints each jsonb as text and promises no order without one, so
   * string_agg is given the order.
   */
  joinedDocuments(doc: Sql, keys: SortSpec[], before: string, after: string): Sql {
    if (!this.#pg) {
      return sql`cast(${before} || coalesce(group_concat(${doc}, ','), '') || ${after} as blob)`;
    }
    const last = keys.at(-1)?.direction ?? "asc";
    const order = [
      ...keys.map((key, i) => sql`${sql.ref(`found.s${i}`)} ${sql.raw(key.direction)}`),
      sql`found.seq ${sql.raw(last)}`,
    ];
    return sql`${before}::text || coalesce(string_agg(${doc}::text, ',' order by ${sql.join(order)}), '') || ${after}::text`;
  }

  /**
   * A LIMIT of `count` rows (a positive whole number): a literal on SQLite, which plans a statement whose
   * LIMIT is a bound parameter again on every run; a bound parameter on PostgreSQL, so that a list's SQL does
   * not vary with its page size and one named statement (see ./open.ts) serves every size.
   */
  limit(count: number): RawBuilder<number> {
    checkLimit(count);
    return this.#pg ? sql<number>`${count}` : sql.lit(count);
  }

  /** A JSON path as a bound parameter: `$.a.b` (SQLite) or `{a,b}` (PostgreSQL). */
  jsonPath(path: string): Sql {
    const value = jsonPathValue(path, this.#pg);
    return this.#pg ? sql`${value}::text[]` : sql`${value}`;
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
      return this.#inList(
        sql.ref(`records.${path}`),
        values.map((v) => columnValue(path, v)),
      );
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
      .map(([type, list]) => this.#inList(at(type), list));
    return parts.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
  }

  /**
   * `expr in (values)`. A long list is bound as one parameter (a PostgreSQL array whose type the database
   * infers from `expr`; a JSON array read with SQLite's json_each), since each database bounds the
   * parameters of one statement (PostgreSQL 65,535, SQLite 32,766) and a filter may hold more values.
   */
  #inList(expr: Sql, values: Array<string | number>): Condition {
    if (values.length <= INLINE_LIST_MAX) {
      return sql<SqlBool>`${expr} in (${sql.join(values.map((v) => sql`${v}`))})`;
    }
    return this.#pg
      ? sql<SqlBool>`${expr} = any(${values})`
      : sql<SqlBool>`${expr} in (select value from json_each(${JSON.stringify(values)}))`;
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
   * logically; it lets the database start an index range scan at the position. The alternatives compare the
   * same values in a form no index answers (`+k` on SQLite, `k || ''` or `k + 0` on PostgreSQL): else the
   * planner may answer each alternative from the index on its own and join them (SQLite's MULTI-INDEX OR,
   * PostgreSQL's BitmapOr), which loses the index order and sorts every row past the position; both did at
   * 100,000 records (test/store/query-plans.test.ts).
   */
  keyset(keys: SortSpec[], position: Position, side: Side): Condition {
    const lastDirection = keys[keys.length - 1]?.direction ?? "asc";
    const terms: Array<{
      expr: Sql;
      type: SortSpec["type"];
      direction: "asc" | "desc";
      value: string | number;
    }> = [
      ...keys.map((key, i) => ({
        expr: key.expr,
        type: key.type,
        direction: key.direction,
        value: position.values[i] ?? "",
      })),
      { expr: sql.ref("records.seq"), type: "number", direction: lastDirection, value: position.seq },
    ];
    const upward = (direction: "asc" | "desc") => (side === "after") === (direction === "asc");
    const unindexed = ({ expr, type }: (typeof terms)[number]) => {
      if (!this.#pg) return sql`+${expr}`;
      return type === "number" ? sql`(${expr} + 0)` : sql`(${expr} || '')`;
    };
    const alternatives = terms.map((term, i) => {
      const equal = terms.slice(0, i).map((t) => sql`${unindexed(t)} = ${t.value}`);
      const orEqual = i === terms.length - 1 && position.inclusive ? "=" : "";
      const op = sql.raw(`${upward(term.direction) ? ">" : "<"}${orEqual}`);
      return sql`(${sql.join([...equal, sql`${unindexed(term)} ${op} ${term.value}`], sql` and `)})`;
    });
    const first = terms[0] as (typeof terms)[number];
    const bound = sql`${first.expr} ${sql.raw(upward(first.direction) ? ">=" : "<=")} ${first.value}`;
    return sql<SqlBool>`(${bound} and (${sql.join(alternatives, sql` or `)}))`;
  }
}

/** A filter value for an indexed column: numbers for object_version, text for the rest. */
export function columnValue(path: string, value: string | number | boolean): string | number {
  if (path !== "object_version") return String(value);
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isFinite(number)) {
    throw new Error(`object_version compares with numbers, not ${JSON.stringify(value)}`);
  }
  return number;
}

/** A filter value for a JSON field: booleans compare as the text the accessors give ('true' / 'false'). */
export function jsonValue(value: string | number | boolean): string | number {
  return typeof value === "boolean" ? String(value) : value;
}

export function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`Invalid limit: ${limit}`);
  return limit;
}

/**
 * Orders `query` by each sort key (as `sortValue` gives it: the expression, or the column it was selected as),
 * then by seq in the last key's direction; every direction flipped when `reverse`.
 */
export function sortedBy<Q extends SelectQueryBuilder<DB, "records", object>>(
  query: Q,
  keys: SortSpec[],
  reverse: boolean,
  sortValue: (key: SortSpec, index: number) => Expression<unknown>,
): Q {
  const flip = (direction: "asc" | "desc") => (reverse ? (direction === "asc" ? "desc" : "asc") : direction);
  let sorted = query;
  keys.forEach((key, i) => {
    sorted = sorted.orderBy(sortValue(key, i), flip(key.direction)) as Q;
  });
  return sorted.orderBy("records.seq", flip(keys.at(-1)?.direction ?? "asc")) as Q;
}
