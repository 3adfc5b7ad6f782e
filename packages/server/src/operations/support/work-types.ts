// The members of a work that belong to its type: planning members of issues (priority, sprint, planned start,
// effort) and customer members of tickets (severity, account and Rev organization, channels, group, whether it
// needs a response, source channel, sentiment), as works.create and works.update take them, and the filters
// works.list and works.export apply to them (`issue.*` to issues only, `ticket.*` to tickets only).
import type { Work } from "@workapi/types";
import { fieldError, notPermitted } from "../../core/errors.js";
import type { Context, Input } from "../../core/handlers.js";
import type { Filter } from "../../store/types.js";
import { dateFilter, refIn, valueIn } from "./filters.js";
import { allOf } from "./records.js";
import { FAMILIES, resolveRecord } from "./references.js";

type WorkData = Partial<Work> & Record<string, unknown>;
type TypeInput = Pick<
  Input<"works.create">,
  | "priority"
  | "target_start_date"
  | "estimated_effort"
  | "sprint"
  | "severity"
  | "account"
  | "rev_org"
  | "channels"
  | "group"
  | "needs_response"
  | "source_channel"
>;

const ISSUE_FIELDS = ["priority", "target_start_date", "estimated_effort", "sprint"] as const;
const TICKET_FIELDS = [
  "severity",
  "account",
  "rev_org",
  "channels",
  "group",
  "needs_response",
  "source_channel",
] as const;

/**
 * The stock values of a ticket's sentiment. The organization defines no others here; a new ticket is
 * `neutral` until someone judges otherwise.
 */
export const SENTIMENTS = [
  { id: 1, label: "positive", ordinal: 1 },
  { id: 2, label: "neutral", ordinal: 2 },
  { id: 3, label: "negative", ordinal: 3 },
] as const;

type Summary = { id: string; display_id: string; display_name: string };
const summary = (record: { id: string; display_id: string; data: object }): Summary => ({
  id: record.id,
  display_id: record.display_id,
  display_name: String((record.data as { display_name?: unknown }).display_name ?? ""),
});

/** The account and Rev organization of a ticket, each filling in the other (see the contract's `rev_org`). */
async function customerOf(
  ctx: Context,
  accountId: string | undefined,
  revOrgId: string | undefined,
): Promise<Partial<WorkData>> {
  const account =
    accountId === undefined
      ? undefined
      : await resolveRecord<object>(ctx, "account", [FAMILIES.account.kind], accountId, "Account");
  let revOrg =
    revOrgId === undefined
      ? undefined
      : await resolveRecord<{ account?: Summary }>(
          ctx,
          "rev_org",
          [FAMILIES.rev_org.kind],
          revOrgId,
          "Rev organization",
        );
  if (account && revOrg && revOrg.data.account?.id !== account.id) {
    throw notPermitted(
      "rev_org",
      "the Rev organization belongs to another account",
      `${revOrg.display_id} is not a Rev organization of ${account.display_id}; name one of its own or leave 'rev_org' out.`,
    );
  }
  if (account && !revOrg) {
    // The account's main Rev organization: its first one.
    [revOrg] = await ctx.store.findRecords<{ account?: Summary }>(ctx.org.id, FAMILIES.rev_org.kind, {
      filter: { op: "eq", path: "account.id", value: account.id },
      sort: [{ path: "created_date", direction: "asc" }],
      limit: 1,
    });
  }
  return {
    ...(account
      ? { account: summary(account) }
      : revOrg?.data.account
        ? { account: revOrg.data.account }
        : {}),
    ...(revOrg ? { rev_org: { type: "rev_org", ...summary(revOrg) } } : {}),
  };
}

/**
 * The type's members sent in a works.create or works.update body, checked and resolved; a member of another
 * type is 400 `invalid_field` naming it. On create, a ticket also gets its defaults: no channels, no response
 * needed, a neutral sentiment.
 */
export async function typeFields(
  ctx: Context,
  type: string,
  input: TypeInput,
  mode: "create" | "update",
): Promise<Partial<WorkData>> {
  const own: readonly string[] = type === "issue" ? ISSUE_FIELDS : type === "ticket" ? TICKET_FIELDS : [];
  for (const field of [...ISSUE_FIELDS, ...TICKET_FIELDS]) {
    if (input[field] !== undefined && !own.includes(field)) {
      const owner = (ISSUE_FIELDS as readonly string[]).includes(field) ? "issues" : "tickets";
      throw fieldError(
        "invalid_field",
        field,
        `'${field}' belongs to ${owner}; a ${type} has no '${field}'.`,
      );
    }
  }
  const fields: Partial<WorkData> = {};
  if (type === "issue") {
    if (input.priority !== undefined) fields.priority = input.priority;
    if (input.target_start_date !== undefined)
      fields.target_start_date = new Date(input.target_start_date).toISOString();
    if (input.estimated_effort !== undefined) fields.estimated_effort = input.estimated_effort;
    if (input.sprint !== undefined) {
      const vista = await resolveRecord<{ name?: string; state?: string }>(
        ctx,
        "sprint",
        [FAMILIES.vista.kind],
        input.sprint,
        "Sprint",
      );
      fields.sprint = {
        type: "curated",
        id: vista.id,
        name: vista.data.name ?? vista.display_id,
        ...(vista.data.state ? { state: vista.data.state as "active" } : {}),
      };
    }
  }
  if (type === "ticket") {
    if (input.account !== undefined || input.rev_org !== undefined) {
      Object.assign(fields, await customerOf(ctx, input.account, input.rev_org));
    }
    if (input.severity !== undefined) fields.severity = input.severity;
    if (input.channels !== undefined) fields.channels = [...new Set(input.channels)];
    if (input.group !== undefined) fields.group = { id: input.group }; // groups are not records of this server
    if (input.needs_response !== undefined) fields.needs_response = input.needs_response;
    if (input.source_channel !== undefined) fields.source_channel = input.source_channel;
    if (mode === "create") {
      fields.channels ??= [];
      fields.is_frozen = false;
      fields.needs_response ??= false;
      fields.sentiment = { ...SENTIMENTS[1] };
      fields.sentiment_modified_date = new Date().toISOString();
    }
  }
  return fields;
}

/** `filter` for works of `type` only: works of other types pass. */
function forType(type: string, filter: Filter | undefined): Filter | undefined {
  if (!filter) return undefined;
  return { op: "or", filters: [{ op: "ne", path: "subtype", value: type }, filter] };
}

const flag = (path: string, value: boolean | undefined): Filter | undefined =>
  value === undefined
    ? undefined
    : value
      ? { op: "eq", path, value: true }
      : { op: "not", filter: { op: "eq", path, value: true } };

type Filters = Pick<Input<"works.list">, "issue" | "ticket" | "staged_info" | "sync_metadata">;

/** A sync filter (`last_sync_in` / `last_sync_out`) on the stored sync_metadata. */
function syncFilter(
  path: string,
  sync: NonNullable<Filters["sync_metadata"]>["last_sync_in"] | undefined,
): Filter | undefined {
  if (!sync) return undefined;
  return allOf(
    valueIn(`${path}.status`, sync.status),
    dateFilter(`${path}.sync_date`, sync.sync_date),
    valueIn(`${path}.sync_history`, sync.sync_history),
    refIn(`${path}.sync_unit`, sync.sync_unit),
  );
}

/**
 * The `issue`, `ticket`, `staged_info` and `sync_metadata` filters of works.list and works.export, on what
 * works store. A work that was never staged or synchronized has none of those members: it is not staged, and
 * matches no sync filter.
 */
export function typeFilters(input: Filters): Filter | undefined {
  const { issue, ticket } = input;
  const sync = input.sync_metadata;
  return allOf(
    issue &&
      forType(
        "issue",
        allOf(
          refIn("account", issue.accounts),
          dateFilter("actual_start_date", issue.actual_start_date),
          valueIn("priority", issue.priority),
          issue.priority_v2?.length
            ? { op: "in", path: "priority_v2.id", values: issue.priority_v2 }
            : undefined,
          refIn("rev_org", issue.rev_orgs),
          valueIn("sla_summary.stage", issue.sla_summary?.stage),
          dateFilter("sla_summary.target_time", issue.sla_summary?.target_time),
          refIn("sprint", issue.sprint),
          dateFilter("target_start_date", issue.target_start_date),
        ),
      ),
    ticket &&
      forType(
        "ticket",
        allOf(
          refIn("brand", ticket.brand),
          ticket.channels?.length ? { op: "any", path: "channels", values: ticket.channels } : undefined,
          ticket.channels_v2?.length
            ? { op: "any", path: "channels_v2", key: "id", values: ticket.channels_v2 }
            : undefined,
          refIn("group", ticket.group),
          flag("is_frozen", ticket.is_frozen),
          flag("is_spam", ticket.is_spam),
          flag("needs_response", ticket.needs_response),
          refIn("rev_org", ticket.rev_org),
          valueIn("severity", ticket.severity),
          valueIn("sla_summary.stage", ticket.sla_summary?.stage),
          dateFilter("sla_summary.target_time", ticket.sla_summary?.target_time),
          valueIn("source_channel", ticket.source_channel),
          refIn("source_channel_v2", ticket.source_channel_v2),
        ),
      ),
    flag("staged_info.is_staged", input.staged_info?.is_staged),
    sync &&
      allOf(
        valueIn("sync_metadata.external_reference", sync.external_reference),
        valueIn("sync_metadata.origin_system", sync.origin_system),
        syncFilter("sync_metadata.last_sync_in", sync.last_sync_in),
        syncFilter("sync_metadata.last_sync_out", sync.last_sync_out),
      ),
  );
}
