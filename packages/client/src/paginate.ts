// Pagination: follows an operation's cursors (named by x-pagination) page after page.
import type { AnyResult } from "./errors.js";
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
/** Sends one page request: its answer, `{ data }` or `{ error }` (or it throws, in the throwing mode). */
export type PageCall = (body: Record<string, unknown>, options: PageOptions) => Promise<AnyResult>;

/**
 * Yields the answers of a paginated operation's pages, from the first request (`params`, which may hold a
 * starting `cursor`) to the answer without a cursor in the direction of `mode`, or until `max` entries (the
 * last page is cut to fit), or to an error answer, yielded last.
 */
export async function* paginate(
  call: PageCall,
  shape: PageShape,
  params: Record<string, unknown> = {},
  { mode = "after", max = Infinity, ...options }: PageOptions = {},
): AsyncGenerator<AnyResult, void, undefined> {
  let cursor = params.cursor;
  let count = 0;
  do {
    // An undefined cursor (the first page, without one) is left out of the query and of the JSON body.
    const result = await call({ ...params, mode, cursor }, options);
    if (!result.response.ok) return yield result;
    const page = result.data as Page;
    const all = (page[shape.items] ?? []) as unknown[];
    const items = all.slice(0, max - count);
    count += items.length;
    yield { ...result, data: { ...page, [shape.items]: items } };
    const way = mode === "before" ? "prev" : "next";
    const next = page[shape[way] ?? `${way}_cursor`];
    // The end: no cursor that way (a cursor that does not move is an end too, not an endless loop).
    if (!next || next === cursor) return;
    cursor = next;
  } while (count < max);
}

/** Every entry of the pages, as one answer `{ data: entries }`, or the first error answer. */
export async function collect(pages: AsyncGenerator<AnyResult>, items: string): Promise<AnyResult> {
  const data: unknown[] = [];
  let last: AnyResult | undefined;
  for await (last of pages) {
    if (!last.response.ok) return last;
    data.push(...((last.data as Page)[items] as unknown[]));
  }
  return { data, response: (last as AnyResult).response };
}
