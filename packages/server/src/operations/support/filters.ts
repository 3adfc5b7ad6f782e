// Filters the handlers share: date filters and references given by id or display id, as store filters.
import type { DateFilter } from "@workapi/types";
import type { Filter } from "../../store/types.js";
import { allOf } from "./records.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The store filter of a date filter on `path` (a date column or a dotted data path holding ISO dates). Both
 * ends are inclusive. Presets count whole UTC days and include today: `last_n_days` runs from the start of
 * the day `days` days ago to the end of today, `next_n_days` from the start of today to the end of the day
 * `days` days ahead (so `days: 0` is today).
 */
export function dateFilter(
  path: string,
  filter: DateFilter | undefined,
  now = new Date(),
): Filter | undefined {
  if (!filter) return undefined;
  let after: string | undefined;
  let before: string | undefined;
  if (filter.type === "range") {
    after = filter.after === undefined ? undefined : new Date(filter.after).toISOString();
    before = filter.before === undefined ? undefined : new Date(filter.before).toISOString();
  } else {
    // Far-off presets are clamped to a million days, inside the range dates can hold.
    const days = Math.min(filter.days, 1_000_000);
    const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const endOfToday = startOfToday + DAY_MS - 1;
    if (filter.preset_type === "last_n_days") {
      after = new Date(startOfToday - days * DAY_MS).toISOString();
      before = new Date(endOfToday).toISOString();
    } else {
      after = new Date(startOfToday).toISOString();
      before = new Date(endOfToday + days * DAY_MS).toISOString();
    }
  }
  // A range without either end still asks for the date to be there.
  return (
    allOf(
      after === undefined ? undefined : { op: "gte", path, value: after },
      before === undefined ? undefined : { op: "lte", path, value: before },
    ) ?? { op: "exists", path, exists: true }
  );
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
