// SLAs: drafts that are changed with slas.update and moved along their life with slas.transition.
import type { Sla, SlaPolicy } from "@workapi/types";
import { notPermitted } from "../core/errors.js";
import type { Context, Handlers, Input } from "../core/handlers.js";
import type { Filter } from "../store/types.js";
import { allOf, mustGet, storedPage } from "./support/records.js";
import { FAMILIES, resolveParts, resolveRecord, resolveUsers } from "./support/references.js";

type SlaStatus = NonNullable<Sla["status"]>;
type AccountSelector = NonNullable<Sla["account_filter"]>;

/** The moves slas.transition allows out of each state. */
const MOVES: Record<SlaStatus, SlaStatus[]> = {
  draft: ["published", "archived"],
  published: ["archived"],
  archived: [],
};

/** Tag ids (plain strings here, not `{id, value}` references) must name tags of the organization. */
async function checkTags(ctx: Context, field: string, ids: string[] | undefined): Promise<void> {
  for (const [index, id] of (ids ?? []).entries()) {
    await resolveRecord(ctx, `${field}.${index}`, [FAMILIES.tag.kind], id, "Tag");
  }
}

/**
 * Checks the ids a policy list names (owners, parts, tags, Rev organizations, org schedules, also inside
 * `issue_selector`) and that every policy covers a
 * kind of record the SLA applies to (when the SLA names any). Metric and group ids name records this server
 * does not keep, so they are stored as sent.
 */
async function checkPolicies(
  ctx: Context,
  policies: SlaPolicy[] | undefined,
  appliesTo: string[] | undefined,
): Promise<void> {
  for (const [index, policy] of (policies ?? []).entries()) {
    const field = `policies.${index}`;
    const { selector } = policy;
    if (appliesTo && appliesTo.length > 0 && !appliesTo.includes(selector.applies_to)) {
      throw notPermitted(
        `${field}.selector.applies_to`,
        "the SLA does not apply to this kind of record",
        `The policy covers '${selector.applies_to}' records, but the SLA applies to: ${appliesTo.join(", ")}.`,
        appliesTo,
      );
    }
    await resolveUsers(ctx, `${field}.selector.owners`, selector.owners);
    await resolveParts(ctx, `${field}.selector.parts`, selector.parts);
    await checkTags(ctx, `${field}.selector.tags`, selector.tags);
    // The issue selector names records like the selector itself does: checked the same way.
    const issues = selector.issue_selector;
    if (issues) {
      await resolveUsers(ctx, `${field}.selector.issue_selector.owners`, issues.owners);
      await resolveParts(ctx, `${field}.selector.issue_selector.parts`, issues.parts);
      await checkTags(ctx, `${field}.selector.issue_selector.tags`, issues.tags);
      for (const [r, id] of (issues.rev_orgs ?? []).entries()) {
        await resolveRecord(
          ctx,
          `${field}.selector.issue_selector.rev_orgs.${r}`,
          [FAMILIES.rev_org.kind],
          id,
          "Rev organization",
        );
      }
    }
    for (const [m, metric] of (policy.metrics ?? []).entries()) {
      if (metric.org_schedule_id !== undefined) {
        await resolveRecord(
          ctx,
          `${field}.metrics.${m}.org_schedule_id`,
          [FAMILIES.org_schedule.kind],
          metric.org_schedule_id,
          "Organization schedule",
        );
      }
    }
  }
}

/** Checks the user and tag ids of an account selector. */
async function checkAccountSelector(ctx: Context, selector: AccountSelector | undefined): Promise<void> {
  if (!selector) return;
  await resolveUsers(ctx, "account_selector.created_by", selector.created_by);
  await resolveUsers(ctx, "account_selector.owned_by", selector.owned_by);
  await checkTags(ctx, "account_selector.tags", selector.tags);
}

/**
 * Decided where the interface is silent: only a draft changes; publishing freezes an SLA (archive it and
 * create a new one to change the terms).
 */
function requireDraft(sla: Sla, id: string): void {
  if (sla.status === "draft") return;
  throw notPermitted(
    "id",
    "only draft SLAs can be updated",
    `SLA '${id}' is ${sla.status}: only drafts can be updated. Create a new SLA instead.`,
  );
}

/** The `applies_to` filter: `all` needs every kind named, `any` (the default) at least one. */
function appliesToFilter(input: Input<"slas.list">): Filter | undefined {
  const kinds = input.applies_to ?? [];
  if (kinds.length === 0) return undefined;
  if (input.applies_to_op === "all") {
    return allOf(...kinds.map((kind): Filter => ({ op: "any", path: "applies_to", values: [kind] })));
  }
  return { op: "any", path: "applies_to", values: kinds };
}

export const slas = {
  "slas.create": async (ctx, input) => {
    await checkPolicies(ctx, input.policies, input.applies_to);
    await checkAccountSelector(ctx, input.account_selector);
    const data: Omit<Sla, "id" | "display_id"> = {
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      sla_type: input.sla_type ?? "external",
      status: "draft",
      ...(input.applies_to !== undefined ? { applies_to: input.applies_to } : {}),
      ...(input.evaluation_period !== undefined ? { evaluation_period: input.evaluation_period } : {}),
      // The request names it account_selector; the record carries it as account_filter.
      ...(input.account_selector !== undefined ? { account_filter: input.account_selector } : {}),
      // Kept in the order sent: the first policy has the highest priority.
      ...(input.policies !== undefined ? { policies: input.policies } : {}),
    };
    const record = await ctx.store.createRecord(ctx.actor, { ...FAMILIES.sla, label: input.name, data });
    return { sla: record.data as Sla };
  },

  // Sortable: name, status, sla_type, evaluation_period, created_date, modified_date, object_version.
  "slas.list": async (ctx, input) => {
    return storedPage<"slas", Sla>(ctx, "slas", FAMILIES.sla.kind, input, {
      filter: allOf(
        appliesToFilter(input),
        input.sla_type?.length ? { op: "in", path: "sla_type", values: input.sla_type } : undefined,
        input.status?.length ? { op: "in", path: "status", values: input.status } : undefined,
      ),
      sortable: {
        name: { path: "label" },
        status: { path: "status" },
        sla_type: { path: "sla_type" },
        evaluation_period: { path: "evaluation_period" },
      },
    });
  },

  "slas.update": async (ctx, input) => {
    const current = await mustGet<Sla>(ctx, [FAMILIES.sla.kind], input.id, "SLA");
    requireDraft(current.data, input.id);
    if (input.name !== undefined && input.name.trim() === "") {
      throw notPermitted("name", "the name is empty", "An SLA's name needs at least one character.");
    }
    await checkPolicies(ctx, input.policies, current.data.applies_to);
    await checkAccountSelector(ctx, input.account_selector);
    const updated = await ctx.store.updateRecord<Sla>(ctx.actor, FAMILIES.sla.kind, current.id, (stored) => {
      requireDraft(stored.data, input.id);
      const data: Sla = { ...stored.data };
      if (input.name !== undefined) data.name = input.name;
      if (input.description !== undefined) data.description = input.description;
      if (input.evaluation_period !== undefined) data.evaluation_period = input.evaluation_period;
      if (input.account_selector !== undefined) data.account_filter = input.account_selector;
      // The array sent replaces the stored one, in the order sent.
      if (input.policies !== undefined) data.policies = input.policies;
      return { data, label: data.name ?? stored.label };
    });
    return { sla: updated.data };
  },

  "slas.transition": async (ctx, input) => {
    const current = await mustGet<Sla>(ctx, [FAMILIES.sla.kind], input.id, "SLA");
    const updated = await ctx.store.updateRecord<Sla>(ctx.actor, FAMILIES.sla.kind, current.id, (stored) => {
      const from = stored.data.status ?? "draft";
      const allowed = MOVES[from];
      if (!allowed.includes(input.status)) {
        throw notPermitted(
          "status",
          allowed.length === 0
            ? `an ${from} SLA no longer moves`
            : `a ${from} SLA cannot move to ${input.status}`,
          allowed.length === 0
            ? `SLA '${input.id}' is ${from}; it cannot move to any other state.`
            : `SLA '${input.id}' is ${from}; it can move to: ${allowed.join(", ")}.`,
          allowed,
        );
      }
      return { data: { ...stored.data, status: input.status } };
    });
    return { sla: updated.data };
  },
} satisfies Partial<Handlers>;
