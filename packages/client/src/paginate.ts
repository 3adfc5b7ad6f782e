// Pagination: follows an operation's cursors (named by x-pagination) page after page.
import type { PageOptions } from "./operation.js";

/** Where a paginated operation's answer keeps its entries and its cursors. */
export interface PageShape {
  readonly items: string;
  /** The field of the next page's cursor; `next_cursor` when left out. */
  readonly next?: string;
  /** The field of the previous page's cursor; `prev_cursor` when left out. */
  readonly prev?: string;
}

type Page = Record<string, unknown>;
/** Sends one page request; throws an ApiError for an error answer. */
export type PageCall = (body: Record<string, unknown>, options: PageOptions) => Promise<Page>;

/**
 * Yields the pages of a paginated operation, or their entries when `pages` is false, from the first request
 * (`params`, which may hold a starting `cursor`) to the answer without a cursor in the direction of `mode`,
 * or until `limit` entries (the last page is cut to fit).
 */
export async function* paginate(
  call: PageCall,
  shape: PageShape,
  params: Record<string, unknown> = {},
  {
    mode = "after",
    limit = Number.POSITIVE_INFINITY,
    pages,
    ...options
  }: PageOptions & { pages?: boolean } = {},
): AsyncGenerator<unknown, void, undefined> {
  let cursor = params.cursor;
  let count = 0;
  while (count < limit) {
    const page = await call({ ...params, mode, ...(cursor == null ? {} : { cursor }) }, options);
    const all = (page[shape.items] ?? []) as unknown[];
    const items = all.length > limit - count ? all.slice(0, limit - count) : all;
    count += items.length;
    if (!pages) yield* items;
    else yield items === all ? page : { ...page, [shape.items]: items };
    const way = mode === "before" ? "prev" : "next";
    const next = page[shape[way] ?? `${way}_cursor`];
    // The end: no cursor that way (a cursor that does not move is an end too, not an endless loop).
    if (next == null || next === "" || next === cursor) return;
    cursor = next;
  }
}
