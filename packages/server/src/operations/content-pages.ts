// Cursor pages over entries held in memory (dev users live outside the record store), with the same
// semantics as the store's pages: `after` continues after the cursor (or starts at the beginning), `before`
// gives the entries just before the cursor (or the last ones), always in the requested order.
import { createHash } from "node:crypto";
import { ApiError } from "../http/errors.js";
import type { PageInput, Sortable } from "./common.js";
import { sortKeys } from "./common.js";

interface Position {
  /** The sort values of the entry, then its id (the tie-breaker). */
  v: string[];
  /** Which list and order the cursor belongs to. */
  h: string;
}

function encode(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

function decode(cursor: string, hash: string): Position {
  let position: Position | undefined;
  try {
    position = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Position;
  } catch {
    position = undefined;
  }
  if (!position || !Array.isArray(position.v) || position.h !== hash) {
    throw new ApiError(
      "invalid_field",
      "The cursor is invalid.",
      "The cursor does not come from this list with these filters and this order; start again without it.",
      { field_name: "cursor" },
    );
  }
  return position;
}

/**
 * One page of `entries` (already filtered) sorted by `sort_by` (default: created_date ascending). `fields` reads
 * a sortable field of an entry as text; `scope` identifies the filters, so a cursor only continues its own list.
 */
export function pageOf<T extends { id: string }>(
  entries: T[],
  input: PageInput,
  options: { sortable: Sortable; fields: (entry: T, path: string) => string; scope: unknown },
): { items: T[]; next_cursor?: string; prev_cursor?: string } {
  const keys = sortKeys(input.sort_by, options.sortable) ?? [{ path: "created_date", direction: "asc" }];
  const hash = createHash("sha256")
    .update(JSON.stringify([keys, options.scope]))
    .digest("base64url")
    .slice(0, 16);
  const valuesOf = (entry: T) => [...keys.map((key) => options.fields(entry, key.path)), entry.id];
  const compare = (a: string[], b: string[]) => {
    for (const [index, key] of [...keys, { direction: "asc" as const }].entries()) {
      const x = a[index] ?? "";
      const y = b[index] ?? "";
      if (x !== y) return (x < y ? -1 : 1) * (key.direction === "desc" ? -1 : 1);
    }
    return 0;
  };
  const sorted = entries
    .map((entry) => ({ entry, values: valuesOf(entry) }))
    .sort((a, b) => compare(a.values, b.values));
  const limit = input.limit ?? 50;
  const position = input.cursor ? decode(input.cursor, hash).v : undefined;
  let start: number;
  let end: number;
  if ((input.mode ?? "after") === "after") {
    start = position ? sorted.findIndex((item) => compare(item.values, position) > 0) : 0;
    if (start === -1) start = sorted.length;
    end = Math.min(start + limit, sorted.length);
  } else {
    end = position ? sorted.findIndex((item) => compare(item.values, position) >= 0) : sorted.length;
    if (end === -1) end = sorted.length;
    start = Math.max(0, end - limit);
  }
  const page = sorted.slice(start, end);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    items: page.map((item) => item.entry),
    ...(last && end < sorted.length ? { next_cursor: encode({ v: last.values, h: hash }) } : {}),
    ...(first && start > 0 ? { prev_cursor: encode({ v: first.values, h: hash }) } : {}),
  };
}
