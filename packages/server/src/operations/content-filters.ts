// Filters the content group's lists share: date filters and references given by id or display id.
import type { DateFilter } from "@workapi/types";
import type { Filter } from "../store/types.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A date filter on a column or data path: `{type: "range", after?, before?}` (both inclusive) or
 * `{type: "preset", preset_type: "last_n_days" | "next_n_days", days}`, counted from now in whole 24-hour days.
 * Dates are compared as ISO 8601 UTC strings with milliseconds, the form every stored date has.
 */
export function dateFilter(path: string, filter: DateFilter | undefined): Filter | undefined {
  if (!filter) return undefined;
  let from: string | undefined;
  let to: string | undefined;
  if (filter.type === "range") {
    from = filter.after === undefined ? undefined : new Date(filter.after).toISOString();
    to = filter.before === undefined ? undefined : new Date(filter.before).toISOString();
  } else {
    const now = Date.now();
    const span = filter.days * DAY_MS;
    [from, to] =
      filter.preset_type === "last_n_days"
        ? [new Date(now - span).toISOString(), new Date(now).toISOString()]
        : [new Date(now).toISOString(), new Date(now + span).toISOString()];
  }
  const bounds: Filter[] = [];
  if (from !== undefined) bounds.push({ op: "gte", path, value: from });
  if (to !== undefined) bounds.push({ op: "lte", path, value: to });
  if (bounds.length === 0) return undefined;
  return bounds.length === 1 ? bounds[0] : { op: "and", filters: bounds };
}

/** The reference object at `path` (`{id, display_id, ...}`) names one of `values`, by id or display id. */
export function refIn(path: string, values: string[] | undefined): Filter | undefined {
  if (!values?.length) return undefined;
  return {
    op: "or",
    filters: [
      { op: "in", path: `${path}.id`, values },
      { op: "in", path: `${path}.display_id`, values },
    ],
  };
}

/**
 * The array at `path` holds a reference naming one of `values`, by id or display id; `key` is the reference's
 * place inside an element (`tag` for TagWithValue elements), none when the element is the reference.
 */
export function refAny(path: string, values: string[] | undefined, key?: string): Filter | undefined {
  if (!values?.length) return undefined;
  const prefix = key ? `${key}.` : "";
  return {
    op: "or",
    filters: [
      { op: "any", path, key: `${prefix}id`, values },
      { op: "any", path, key: `${prefix}display_id`, values },
    ],
  };
}

/** A plain field (column or data path) equal to one of `values`. */
export function valueIn(path: string, values: string[] | undefined): Filter | undefined {
  return values?.length ? { op: "in", path, values } : undefined;
}
