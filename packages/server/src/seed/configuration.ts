// The organization's configuration: surveys, SLAs and business-hour schedules.
import type { Builder } from "./context.js";

/** A survey with a schema (in both field shapes) and one without. */
export async function makeSurveys({ call, count }: Builder): Promise<void> {
  await call("surveys.create", {
    name: "Support satisfaction",
    title: "How did we do?",
    description: "Sent when a conversation is resolved.",
    schema: [
      { name: "rating", field_type: "int", description: "1 to 5", is_required: true },
      // The platform's shape: no field_type; the kind follows from uenum_values and validation.
      {
        name: "resolved",
        description: "Was the problem solved?",
        uenum_values: [
          { id: 1, label: "Yes", ordinal: 1 },
          { id: 2, label: "No", ordinal: 2 },
        ],
      },
      { name: "comment", description: "Anything else?", validation: { max_len: 500 } },
    ],
  });
  await call("surveys.create", { name: "Onboarding feedback", header: "Welcome aboard" });
  count("surveys", 2);
}

/** A draft SLA with policies, a published one and an internal one. */
export async function makeSlas({ call, count }: Builder): Promise<void> {
  await call("slas.create", {
    name: "Standard support",
    applies_to: ["conversation", "ticket"],
    evaluation_period: "monthly",
    policies: [
      {
        name: "High priority",
        selector: { applies_to: "ticket" },
        metrics: [{ metric: "first_response", target: 60 }],
      },
      {
        name: "Everything else",
        selector: { applies_to: "conversation", ticket_source_channel: ["email"] },
        metrics: [{ metric: "first_response", target: 480 }],
      },
    ],
  });
  const { sla: premium } = await call("slas.create", {
    name: "Premium support",
    applies_to: ["ticket", "incident"],
    sla_type: "external",
  });
  await call("slas.transition", { id: premium.id, status: "published" });
  await call("slas.create", { name: "Internal incidents", applies_to: ["incident"], sla_type: "internal" });
  count("slas", 3);
}

/** A holiday fragment and two business-hour schedules, one of which excludes the holidays. */
export async function makeSchedules({ call, count }: Builder): Promise<void> {
  const { org_schedule_fragment: holidays } = await call("org-schedule-fragments.create", {
    name: "Holidays 2027",
    from: "2027-01-01T00:00:00.000Z",
    to: "2028-01-01T00:00:00.000Z",
    region_codes: ["US", "GB"],
    intervals: [
      { name: "New Year's Day", from: "2027-01-01T00:00:00.000Z", is_excluded: true },
      { name: "Christmas Day", from: "2027-12-25T00:00:00.000Z", is_excluded: true },
    ],
  });
  await call("org-schedules.create", {
    name: "Business hours (Europe)",
    timezone: "Europe/Berlin",
    org_schedule_fragments: [{ id: holidays.id }],
  });
  await call("org-schedules.create", { name: "Business hours (US)", timezone: "America/New_York" });
  count("org_schedule_fragments");
  count("org_schedules", 2);
}
