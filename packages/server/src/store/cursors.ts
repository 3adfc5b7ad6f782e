// Cursors: base64url JSON of {v: sort values, s: seq, h: list hash, i?: inclusive}. One codec for every list,
// the store's keyset pages and the in-memory pages of lists kept outside the record store (dev users).
import { createHash } from "node:crypto";
import { isStorableText } from "./storable-text.js";
import { type Filter, type SortKey, StoreError } from "./types.js";

/** The sort keys of a list as the cursor needs them: each key's path, direction and value type. */
export interface CursorKey {
  path: string;
  direction: "asc" | "desc";
  type: "text" | "number";
}

/** A place in a sorted list: a row's sort values and seq. `inclusive`: the range starts at the row itself. */
export interface Position {
  values: Array<string | number>;
  seq: number;
  inclusive?: boolean;
}

/** The position of a row a keyset query selected with its sort values as `s0`, `s1`, ... and its `seq`. */
export function positionOf(row: Record<string, unknown>, keys: CursorKey[]): Position {
  return {
    values: keys.map((key, i) => (key.type === "number" ? Number(row[`s${i}`]) : String(row[`s${i}`]))),
    seq: Number(row.seq),
  };
}

/** Binds cursors to the list they came from: same kind, filter and sort. */
export function listHash(kind: string, filter: Filter | unknown, keys: CursorKey[]): string {
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

export function encodeCursor(position: Position, hash: string): string {
  const body = { v: position.values, s: position.seq, h: hash, ...(position.inclusive ? { i: true } : {}) };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string, hash: string, keys: CursorKey[]): Position {
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
      key.type === "number"
        ? typeof v[n] === "number" && Number.isFinite(v[n])
        : typeof v[n] === "string" && isStorableText(v[n]),
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

export interface MemoryPageQuery {
  /** Names the list, as a record kind names the store's lists: a cursor only continues its own list. */
  list: string;
  /** The filters the entries were chosen with (bound into the cursor like the store's filter). */
  scope: unknown;
  /** Sort keys, most significant first; default: created_date ascending. */
  sort?: SortKey[];
  cursor?: string;
  mode?: "after" | "before";
  limit: number;
}

/**
 * One page of `entries` held in memory (lists kept outside the record store, such as dev users), with the same
 * semantics and cursors as the store's pages: `after` continues after the cursor (or starts at the beginning),
 * `before` gives the entries just before it (or the last ones), always in the requested order. `field` reads a
 * sort field of an entry as text; the entry's id breaks ties, so it is the last sort value and seq stays 0.
 */
export function pageInMemory<T extends { id: string }>(
  entries: T[],
  field: (entry: T, path: string) => string,
  query: MemoryPageQuery,
): { items: T[]; next_cursor?: string; prev_cursor?: string } {
  const keys: CursorKey[] = [
    ...(query.sort ?? [{ path: "created_date", direction: "asc" as const }]).map((key) => ({
      path: key.path,
      direction: key.direction,
      type: "text" as const,
    })),
    { path: "id", direction: "asc", type: "text" },
  ];
  const hash = listHash(query.list, query.scope, keys);
  const compare = (a: Array<string | number>, b: Array<string | number>) => {
    for (const [index, key] of keys.entries()) {
      const x = a[index] ?? "";
      const y = b[index] ?? "";
      if (x !== y) return (x < y ? -1 : 1) * (key.direction === "desc" ? -1 : 1);
    }
    return 0;
  };
  const sorted = entries
    .map((entry) => ({
      entry,
      values: keys.map((key) => (key.path === "id" ? entry.id : field(entry, key.path))),
    }))
    .sort((a, b) => compare(a.values, b.values));
  const position = query.cursor ? decodeCursor(query.cursor, hash, keys).values : undefined;
  let start: number;
  let end: number;
  if ((query.mode ?? "after") === "after") {
    start = position ? sorted.findIndex((item) => compare(item.values, position) > 0) : 0;
    if (start === -1) start = sorted.length;
    end = Math.min(start + query.limit, sorted.length);
  } else {
    end = position ? sorted.findIndex((item) => compare(item.values, position) >= 0) : sorted.length;
    if (end === -1) end = sorted.length;
    start = Math.max(0, end - query.limit);
  }
  const page = sorted.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    items: page.map((item) => item.entry),
    ...(last && end < sorted.length
      ? { next_cursor: encodeCursor({ values: last.values, seq: 0 }, hash) }
      : {}),
    ...(first && start > 0 ? { prev_cursor: encodeCursor({ values: first.values, seq: 0 }, hash) } : {}),
  };
}
