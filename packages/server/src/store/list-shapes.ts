// The shape of a list query and the values it binds, worked out without building it. Kysely builds a query
// tree and compiles it to SQL on every call: over a third of a list's time in the store (its tree of frozen
// nodes, then the walk that prints it). The pages of the list operations (./record-lists.ts) run compiled
// once per shape instead (./compiled-queries.ts): the shape says everything that changes the SQL text (the
// filter's operators, paths, value types and list lengths; the sort keys; whether a cursor is read, on which
// side, inclusive or not; on SQLite the LIMIT, a literal there), the values are what the SQL binds.
//
// The walk here follows the SQL that ./expressions.ts writes, value for value in the order the values appear
// in it. CompiledQueries checks exactly that on the first compile of every shape, against the values Kysely
// bound: a walk that strayed from the SQL fails that request; it never binds a value in the wrong place.
import type { Position } from "./cursors.js";
import {
  COLUMNS,
  columnValue,
  INLINE_LIST_MAX,
  jsonPathValue,
  jsonValue,
  type Side,
  type SortSpec,
} from "./expressions.js";
import type { Filter } from "./types.js";

type Value = string | number | boolean;
type Group = "text" | "number" | "boolean";

export class ListShapes {
  readonly #pg: boolean;

  constructor(pg: boolean) {
    this.#pg = pg;
  }

  /** The shape of `f`; pushes the values its condition binds onto `out` (see Expressions.filter). */
  filter(f: Filter, out: unknown[]): string {
    switch (f.op) {
      case "and":
      case "or":
        return `${f.op}(${f.filters.map((inner) => this.filter(inner, out)).join(",")})`;
      case "not":
        return `not(${this.filter(f.filter, out)})`;
      case "ne":
      case "eq":
      case "gt":
      case "gte":
      case "lt":
      case "lte":
        return `${f.op}:${this.#compare(f.path, f.value, out)}`;
      case "in":
        return `in:${f.path}:${this.#in(f.path, f.values, out)}`;
      case "any":
        return `any:${f.path}:${f.key ?? ""}:${this.#any(f.path, f.key, f.values, out)}`;
      case "exists":
        if (!COLUMNS.has(f.path)) out.push(jsonPathValue(f.path, this.#pg));
        return `exists:${f.path}:${f.exists}`;
      default:
        throw new Error(`Unknown filter operator: ${JSON.stringify((f as { op?: unknown }).op)}`);
    }
  }

  /** `expr op value`: a column's value, or a JSON value read by its accessor (Expressions.#valueAt). */
  #compare(path: string, value: Value, out: unknown[]): string {
    if (COLUMNS.has(path)) {
      out.push(columnValue(path, value));
      return `${path}:column`;
    }
    const type: Group =
      typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "text";
    this.#accessor(type, jsonPathValue(path, this.#pg), out);
    out.push(jsonValue(value));
    return `${path}:${type}`;
  }

  /**
   * The values of an accessor of `path` (textAt, numberAt, booleanAt): each names the path twice (its type,
   * then its value), but SQLite's booleanAt, which reads only its type.
   */
  #accessor(type: Group, path: unknown, out: unknown[]): void {
    out.push(path);
    if (this.#pg || type !== "boolean") out.push(path);
  }

  #in(path: string, values: Value[], out: unknown[]): string {
    if (COLUMNS.has(path)) {
      if (values.length === 0) return "none";
      return this.#list(
        values.map((v) => columnValue(path, v)),
        out,
      );
    }
    const at = jsonPathValue(path, this.#pg);
    return this.#typedIn(values, (type) => this.#accessor(type, at, out), out);
  }

  /** Expressions.#typedIn: per JSON type present, its accessor's values and then the list's. */
  #typedIn(values: Value[], accessor: (type: Group) => void, out: unknown[]): string {
    const groups: Array<[Group, Array<string | number>]> = [
      ["text", values.filter((v) => typeof v === "string")],
      ["number", values.filter((v) => typeof v === "number")],
      ["boolean", values.filter((v) => typeof v === "boolean").map(String)],
    ];
    return groups
      .map(([type, list]) => {
        if (list.length === 0) return "0";
        accessor(type);
        return this.#list(list, out);
      })
      .join("/");
  }

  /** Expressions.#inList: a value each, or past INLINE_LIST_MAX the whole list as one. */
  #list(values: Array<string | number>, out: unknown[]): string {
    if (values.length <= INLINE_LIST_MAX) {
      out.push(...values);
      return String(values.length);
    }
    out.push(this.#pg ? values : JSON.stringify(values));
    return "many";
  }

  #any(path: string, key: string | undefined, values: Array<string | number>, out: unknown[]): string {
    if (COLUMNS.has(path)) throw new Error(`"any" needs an array inside data, not the column ${path}`);
    const array = jsonPathValue(path, this.#pg);
    const keyPath = key === undefined ? "{}" : jsonPathValue(key, this.#pg);
    // The array's path twice (PostgreSQL: its type, then the array; SQLite: its type, then json_each).
    out.push(array, array);
    // Each element's value: through the key's accessor (numbers by numberAt, the rest by textAt), or on
    // SQLite without a key the element itself, which binds nothing.
    const accessor = (type: Group) => {
      if (this.#pg || key !== undefined) this.#accessor(type === "number" ? "number" : "text", keyPath, out);
    };
    return this.#typedIn(values, accessor, out);
  }

  /** The values a sort key's expression binds: a JSON field's path, twice (its type, then its value). */
  sortKey(key: SortSpec, out: unknown[]): void {
    if (!COLUMNS.has(key.path)) this.#accessor(key.type, jsonPathValue(key.path, this.#pg), out);
  }

  /** The shape of `keys`; pushes the values their expressions bind, in order, onto `out`. */
  sortKeys(keys: SortSpec[], out: unknown[]): string {
    for (const key of keys) this.sortKey(key, out);
    return keys.map((key) => `${key.path}:${key.direction}:${key.type}`).join(",");
  }

  /**
   * The shape of Expressions.keyset(keys, position, side); pushes its values onto `out`: the bound on the
   * first key, then each alternative's equal terms and its own.
   */
  keyset(keys: SortSpec[], position: Position, side: Side, out: unknown[]): string {
    const terms = [
      ...keys.map((key, i) => ({ key: key as SortSpec | undefined, value: position.values[i] ?? "" })),
      { key: undefined, value: position.seq },
    ];
    const term = (t: (typeof terms)[number]) => {
      if (t.key) this.sortKey(t.key, out);
      out.push(t.value);
    };
    term(terms[0] as (typeof terms)[number]);
    terms.forEach((_, i) => {
      for (const t of terms.slice(0, i + 1)) term(t);
    });
    return `${side}${position.inclusive ? ":inclusive" : ""}`;
  }

  /** A LIMIT: part of the shape on SQLite (a literal there), a bound value on PostgreSQL. */
  limit(count: number, out: unknown[]): string {
    if (!this.#pg) return String(count);
    out.push(count);
    return "?";
  }
}
