// Organization schedules: business hours in a time zone, one weekly schedule by default and others for
// named periods, made of the fragments (holidays, special periods) of ./org-schedule-fragments.ts.
import type { OrgSchedule, OrgScheduleFragment } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Context, Handlers } from "../core/handlers.js";
import { dateFilter, refIn } from "./support/filters.js";
import { allOf, storedPage } from "./support/records.js";
import { FAMILIES, resolveRecord } from "./support/references.js";
import { checkName } from "./support/schedule-rules.js";

type WeeklyOrgSchedule = NonNullable<OrgSchedule["weekly_org_schedules"]>[number];

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
    return storedPage<"org_schedules", OrgSchedule>(ctx, "org_schedules", FAMILIES.org_schedule.kind, input, {
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
  },
} satisfies Partial<Handlers>;
