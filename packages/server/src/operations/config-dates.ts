// Date filters (`{type: "range", after?, before?}` or `{type: "preset", preset_type, days}`) as store filters.
import type { DateFilter } from "@workapi/types";
import type { Filter } from "../store/types.js";
import { allOf } from "./common.js";

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
