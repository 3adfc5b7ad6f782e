// Pieces every resource's handlers share: sort keys, pages, lookups.
import { apiError, notFound } from "../../core/errors.js";
import type { Context } from "../../core/handlers.js";
import { JsonText } from "../../core/json-text.js";
import type { Filter, ListQuery, RecordJson, SortKey, StoredRecord } from "../../store/types.js";

/** The largest page the server answers, whatever `limit` asks for. */
export const MAX_PAGE = 1000;

export type Sortable = Record<string, Omit<SortKey, "direction">>;

/** The sort keys every family can be sorted by. */
export const BASE_SORTABLE: Sortable = {
  created_date: { path: "created_date" },
  modified_date: { path: "modified_date" },
  object_version: { path: "object_version", type: "number" },
};

/** Turns `["name:asc", "created_date:desc"]` into store sort keys, refusing unknown fields. */
export function sortKeys(sortBy: string[] | undefined, sortable: Sortable): SortKey[] | undefined {
  if (!sortBy || sortBy.length === 0) return undefined;
  return sortBy.map((entry, index) => {
    const [field = "", direction = "asc"] = entry.split(":");
    const key = sortable[field];
    if (!key) {
      throw apiError(
        "value_not_permitted",
        `Cannot sort by '${field}'; sortable fields: ${Object.keys(sortable).join(", ")}.`,
        {
          field_name: `sort_by.${index}`,
          reason: "not a sortable field",
          allowed_values: Object.keys(sortable),
        },
      );
    }
    return { ...key, direction: direction === "desc" ? "desc" : "asc" };
  });
}

export interface PageInput {
  cursor?: string;
  limit?: number;
  mode?: "after" | "before";
  sort_by?: string[];
}

interface PageOptions {
  filter?: Filter;
  sortable?: Sortable;
  defaultLimit?: number;
}

/** The store's list query for a page `input` asks for. */
function pageQuery(input: PageInput, options: PageOptions): ListQuery {
  const sort = sortKeys(input.sort_by, { ...BASE_SORTABLE, ...options.sortable });
  return {
    ...(options.filter ? { filter: options.filter } : {}),
    ...(sort ? { sort } : {}),
    ...(input.cursor ? { cursor: input.cursor } : {}),
    mode: input.mode ?? "after",
    limit: Math.min(input.limit ?? options.defaultLimit ?? 50, MAX_PAGE),
  };
}

/** One page of a family's records, as `{<items>: [...], next_cursor?, prev_cursor?}`. */
export async function listPage<T extends object>(
  ctx: Context,
  kind: string,
  input: PageInput,
  options: PageOptions,
): Promise<{ items: T[]; next_cursor?: string; prev_cursor?: string }> {
  const page = await ctx.store.listRecords<T>(ctx.org.id, kind, pageQuery(input, options));
  return {
    items: page.items.map((record) => record.data),
    ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
    ...(page.prev_cursor ? { prev_cursor: page.prev_cursor } : {}),
  };
}

/**
 * The answer of a list whose items are the stored documents as they are: `{"<key>": [...], next_cursor?,
 * prev_cursor?}` joined from the stored JSON.
 */
export async function storedPage<K extends string, T>(
  ctx: Context,
  key: K,
  kind: string,
  input: PageInput,
  options: PageOptions,
) {
  const page = await ctx.store.listRecordJson(ctx.org.id, kind, pageQuery(input, options));
  return JsonText.page<K, T>(key, page);
}

/** A record of one of `kinds` by id or display id, or the typed 404. */
export async function mustGet<T extends object>(
  ctx: Context,
  kinds: string[],
  id: string,
  what: string,
): Promise<StoredRecord<T>> {
  const record = await ctx.store.getRecord<T>(ctx.org.id, kinds, id);
  if (!record) throw notFound(`${what} '${id}'`);
  return record;
}

/** mustGet's record with its stored document as JSON, for answers that send it as stored. */
export async function mustGetJson(
  ctx: Context,
  kinds: string[],
  id: string,
  what: string,
): Promise<RecordJson> {
  const record = await ctx.store.getRecordJson(ctx.org.id, kinds, id);
  if (!record) throw notFound(`${what} '${id}'`);
  return record;
}

/** Combines filters, leaving out the ones not given. */
export function allOf(...filters: Array<Filter | undefined | false>): Filter | undefined {
  const present = filters.filter((filter): filter is Filter => Boolean(filter));
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return { op: "and", filters: present };
}

/** A page as `{result, cursor}`: the one cursor continues in the direction `mode` asked for. */
export async function resultPage<T extends object>(
  ctx: Context,
  kind: string,
  input: PageInput,
  sortable: Sortable,
): Promise<{ result: T[]; cursor?: string }> {
  const page = await listPage<T>(ctx, kind, input, { sortable });
  const cursor = input.mode === "before" ? page.prev_cursor : page.next_cursor;
  return { result: page.items, ...(cursor ? { cursor } : {}) };
}
