// Organization schedule fragments: the holidays and special periods an organization schedule is made of,
// each a range of days with named intervals and the regions it applies to.
import type { OrgScheduleFragment } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Handlers, Input } from "../core/handlers.js";
import { FAMILIES } from "./support/references.js";
import { checkName } from "./support/schedule-rules.js";

type Interval = NonNullable<OrgScheduleFragment["intervals"]>[number];

const DAY_MS = 24 * 60 * 60 * 1000;
/** CLDR region codes: two capital letters (`DE`) or three digits (`419`, a UN M.49 area). */
const REGION_CODE = /^(?:[A-Z]{2}|\d{3})$/;

/** The fragment as the interface shows it: the base fields without object_version. */
function fragmentOf(data: OrgScheduleFragment & { object_version?: number }): OrgScheduleFragment {
  const { object_version: _version, ...fragment } = data;
  return fragment;
}

/** Checks and completes the intervals of a fragment: each inside [from, to), `to` filled in (one day). */
function fragmentIntervals(
  input: Input<"org-schedule-fragments.create">,
  from: number,
  to: number,
): Interval[] {
  return input.intervals.map((interval, index) => {
    const start = Date.parse(interval.from);
    const end = interval.to === undefined ? start + DAY_MS : Date.parse(interval.to);
    if (start < from || start >= to) {
      throw notPermitted(
        `intervals.${index}.from`,
        "the interval starts outside the fragment",
        `Interval '${interval.name}' starts at ${interval.from}, outside the fragment's range [${input.from}, ${input.to}).`,
      );
    }
    if (end <= start || end > to) {
      throw notPermitted(
        `intervals.${index}.to`,
        end <= start ? "the interval ends before it starts" : "the interval ends after the fragment",
        end <= start
          ? `Interval '${interval.name}' must end after it starts.`
          : `Interval '${interval.name}' ends at ${new Date(end).toISOString()}${interval.to === undefined ? " (one day after its start, as no 'to' was sent)" : ""}, after the fragment's end ${input.to}.`,
      );
    }
    return { ...interval, from: new Date(start).toISOString(), to: new Date(end).toISOString() };
  });
}

export const orgScheduleFragments = {
  "org-schedule-fragments.create": async (ctx, input) => {
    checkName(input.name);
    const from = Date.parse(input.from);
    const to = Date.parse(input.to);
    if (from >= to) {
      throw notPermitted(
        "to",
        "the fragment ends before it starts",
        `The fragment must end ('to', excluded) after it starts ('from'): ${input.to} is not after ${input.from}.`,
      );
    }
    for (const [index, code] of (input.region_codes ?? []).entries()) {
      if (!REGION_CODE.test(code)) {
        throw notPermitted(
          `region_codes.${index}`,
          "not a CLDR region code",
          `'${code}' is not a CLDR region code: send two capital letters (such as 'DE') or three digits (such as '419').`,
        );
      }
    }
    const data: Omit<OrgScheduleFragment, "id" | "display_id"> = {
      name: input.name,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      intervals: fragmentIntervals(input, from, to),
      // Kept as sent: region codes only serve filtering and organization.
      ...(input.region_codes ? { region_codes: input.region_codes } : {}),
      status: "draft",
    };
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.org_schedule_fragment,
      label: input.name,
      data,
    });
    return { org_schedule_fragment: fragmentOf(record.data as OrgScheduleFragment) };
  },
} satisfies Partial<Handlers>;
