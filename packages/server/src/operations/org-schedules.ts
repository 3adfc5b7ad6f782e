// Organization schedules (business hours in a time zone) and their fragments (holidays, special periods).
import type { OrgSchedule, OrgScheduleFragment } from "@workapi/types";
import { notPermitted } from "../http/errors.js";
import { allOf, listPage } from "./common.js";
import { dateFilter, refIn } from "./filters.js";
import { FAMILIES, resolveRecord } from "./refs.js";
import type { Context, Handlers, Input } from "./types.js";

type WeeklyOrgSchedule = NonNullable<OrgSchedule["weekly_org_schedules"]>[number];
type Interval = NonNullable<OrgScheduleFragment["intervals"]>[number];

const DAY_MS = 24 * 60 * 60 * 1000;
/** CLDR region codes: two capital letters (`DE`) or three digits (`419`, a UN M.49 area). */
const REGION_CODE = /^(?:[A-Z]{2}|\d{3})$/;

/** Whether `zone` names an IANA time zone the runtime knows (`Europe/Berlin`, `UTC`); offsets are not zones. */
function isTimeZone(zone: string): boolean {
  if (/^[+-]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A week's intervals must be non-empty (`from` before `to`) and must not overlap. */
function checkWeek(week: WeeklyOrgSchedule, field: string): void {
  for (const [index, interval] of week.intervals.entries()) {
    if (interval.from >= interval.to) {
      throw notPermitted(
        `${field}.intervals.${index}.to`,
        "the interval ends before it starts",
        `Interval ${index} of '${week.period_name}' must end after it starts (minutes ${interval.from} to ${interval.to}).`,
      );
    }
  }
  const order = [...week.intervals.keys()].sort(
    (a, b) => (week.intervals[a]?.from ?? 0) - (week.intervals[b]?.from ?? 0),
  );
  for (let n = 1; n < order.length; n++) {
    const previous = week.intervals[order[n - 1] as number];
    const index = order[n] as number;
    const interval = week.intervals[index];
    if (previous && interval && interval.from < previous.to) {
      throw notPermitted(
        `${field}.intervals.${index}.from`,
        "the interval overlaps another one",
        `Interval ${index} of '${week.period_name}' starts at minute ${interval.from}, inside another interval that ends at minute ${previous.to}.`,
      );
    }
  }
}

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

function checkName(name: string): void {
  if (name.trim() === "")
    throw notPermitted("name", "the name is empty", "Send a name of at least one character.");
}

async function resolveFragments(ctx: Context, refs: Array<{ id: string }> | undefined) {
  const fragments = [];
  for (const [index, ref] of (refs ?? []).entries()) {
    fragments.push(
      await resolveRecord<OrgScheduleFragment>(
        ctx,
        `org_schedule_fragments.${index}.id`,
        [FAMILIES.org_schedule_fragment.kind],
        ref.id,
        "Organization schedule fragment",
      ),
    );
  }
  return fragments;
}

export const orgSchedules = {
  "org-schedules.create": async (ctx, input) => {
    checkName(input.name);
    if (!isTimeZone(input.timezone)) {
      throw notPermitted(
        "timezone",
        "not an IANA time zone",
        `'${input.timezone}' is not an IANA time zone; send a name such as 'Europe/Berlin' or 'UTC'.`,
      );
    }
    if (input.default_weekly_org_schedule) {
      checkWeek(input.default_weekly_org_schedule, "default_weekly_org_schedule");
    }
    const periods = new Set<string>();
    for (const [index, week] of (input.weekly_org_schedules ?? []).entries()) {
      checkWeek(week, `weekly_org_schedules.${index}`);
      if (periods.has(week.period_name)) {
        throw notPermitted(
          `weekly_org_schedules.${index}.period_name`,
          "the period is named twice",
          `Two weeks are named '${week.period_name}'; a period has one week.`,
        );
      }
      periods.add(week.period_name);
    }
    const fragments = await resolveFragments(ctx, input.org_schedule_fragments);
    // The schedule is valid until the latest end of its fragments.
    const ends = fragments.map((fragment) => fragment.data.to).filter((to): to is string => Boolean(to));
    const validUntil = ends.sort().at(-1);
    const data: Omit<OrgSchedule, "id" | "display_id"> = {
      name: input.name,
      timezone: input.timezone,
      status: "draft",
      ...(input.min_valid_days !== undefined ? { min_valid_days: input.min_valid_days } : {}),
      ...(input.default_weekly_org_schedule
        ? { default_weekly_org_schedule: input.default_weekly_org_schedule }
        : {}),
      ...(input.weekly_org_schedules ? { weekly_org_schedules: input.weekly_org_schedules } : {}),
      ...(input.org_schedule_fragments
        ? { org_schedule_fragments: fragments.map((f) => ({ id: f.id, display_id: f.display_id })) }
        : {}),
      ...(validUntil ? { valid_until: validUntil } : {}),
    };
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.org_schedule,
      label: input.name,
      data,
    });
    return { org_schedule: record.data as OrgSchedule };
  },

  // Sortable: name, status, valid_until, created_date, modified_date, object_version.
  "org-schedules.list": async (ctx, input) => {
    const creators = input.created_by_id ?? [];
    const { items, ...cursors } = await listPage<OrgSchedule>(ctx, FAMILIES.org_schedule.kind, input, {
      filter: allOf(
        input.status?.length ? { op: "in", path: "status", values: input.status } : undefined,
        refIn("created_by", creators),
        dateFilter("valid_until", input.valid_until),
      ),
      sortable: {
        name: { path: "label" },
        status: { path: "status" },
        valid_until: { path: "valid_until" },
      },
    });
    return { org_schedules: items, ...cursors };
  },

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
