import type { RevOrg } from "@workapi/types";
import { fieldError, notFound } from "../core/errors.js";
import type { Context, Handlers } from "../core/handlers.js";
import { attachArtifacts, checkArtifacts } from "./support/attachments.js";
import { checkCustomFields } from "./support/change-events.js";
import { dateFilter, refIn, valueIn } from "./support/filters.js";
import { allOf, listPage, mustGet } from "./support/records.js";
import { FAMILIES, resolveRecord, resolveTags, resolveUsers } from "./support/references.js";

const LEAF_TYPE = "rev_org";

/**
 * rev-orgs.create names its custom schemas by fragment id (`custom_schema_fragments`), not by a
 * custom_schema_spec: `tenant_fragment:rev_org` stands for the tenant schema and
 * `custom_type_fragment:rev_org:<subtype>` for a subtype's, the identifiers records carry. Other ids are kept
 * as sent but name no schema.
 */
function specOf(fragments: string[]): { tenant_fragment?: boolean; subtype?: string } {
  const subtype = fragments
    .map((fragment) => /^custom_type_fragment:rev_org:(.+)$/.exec(fragment)?.[1])
    .find((found) => found !== undefined);
  return {
    ...(fragments.includes(`tenant_fragment:${LEAF_TYPE}`) ? { tenant_fragment: true } : {}),
    ...(subtype !== undefined ? { subtype } : {}),
  };
}

/** The stored document: the answer's fields and what rev-orgs.create keeps beside them. */
type StoredRevOrg = RevOrg & { environment?: string; tier?: string };

type RevOrgSummaryData = NonNullable<RevOrg["primary_rev_org"]>;

/**
 * The main Rev organization of an account: its first one (the oldest). Undefined while the account has none,
 * so the first Rev organization of an account is its own main one (see `present`).
 */
async function primaryOf(ctx: Context, accountId: string): Promise<RevOrgSummaryData | undefined> {
  const [first] = await ctx.store.findRecords<RevOrg>(ctx.org.id, FAMILIES.rev_org.kind, {
    filter: { op: "eq", path: "account.id", value: accountId },
    sort: [{ path: "created_date", direction: "asc" }],
    limit: 1,
  });
  return first ? summaryOf(first.data) : undefined;
}

const summaryOf = (revOrg: RevOrg): RevOrgSummaryData => ({
  type: "rev_org",
  id: revOrg.id,
  display_id: revOrg.display_id,
  display_name: revOrg.display_name ?? "",
});

/**
 * The Rev organization as the interface shows it: `primary_rev_org` is a Rev organization summary
 * (`type: rev_org`), the record itself when it is its account's first one. Records stored before that referred
 * to the account there (`type: account`); they too are shown with their own summary.
 */
function present(revOrg: RevOrg): RevOrg {
  const stored = revOrg.primary_rev_org;
  return { ...revOrg, primary_rev_org: stored?.type === "rev_org" ? stored : summaryOf(revOrg) };
}

export const revOrgs = {
  "rev-orgs.create": async (ctx, input) => {
    const fragmentsSent = input.custom_schema_fragments ?? [];
    const spec = specOf(fragmentsSent);
    const fragments = [
      ...new Set([...fragmentsSent, ...checkCustomFields(input.custom_fields, spec, LEAF_TYPE)]),
    ];
    const account = await resolveRecord<{ display_name?: string }>(
      ctx,
      "account",
      [FAMILIES.account.kind],
      input.account,
      "Account",
    );
    const accountRef = {
      id: account.id,
      display_id: account.display_id,
      display_name: account.data.display_name ?? "",
    };
    const artifacts = await checkArtifacts(ctx, "artifacts", input.artifacts);
    const primary = await primaryOf(ctx, account.id);
    // external_ref goes into the indexed column: the store refuses a second one with a conflict (409).
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.rev_org,
      label: input.display_name,
      subtype: spec.subtype ?? null,
      external_ref: input.external_ref ?? null,
      data: {
        display_name: input.display_name,
        account: accountRef,
        ...(primary ? { primary_rev_org: primary } : {}),
        artifacts,
        custom_fields: input.custom_fields ?? {},
        custom_schema_fragments: fragments,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.domain !== undefined ? { domain: input.domain } : {}),
        environment: input.environment ?? "production",
        ...(input.external_ref !== undefined ? { external_ref: input.external_ref } : {}),
        shared_with: await resolveUsers(ctx, "shared_with", input.shared_with),
        ...(spec.subtype !== undefined ? { subtype: spec.subtype } : {}),
        tags: await resolveTags(ctx, "tags", input.tags),
        ...(input.tier !== undefined ? { tier: input.tier } : {}),
      },
    });
    await attachArtifacts(ctx, "artifacts", artifacts, record.id);
    return { rev_org: present(record.data as RevOrg) };
  },

  // By id, or the account's default Rev organization: the first one created under it (its primary_rev_org).
  "rev-orgs.get": async (ctx, input) => {
    if (input.id !== undefined) {
      const record = await mustGet<RevOrg>(ctx, [FAMILIES.rev_org.kind], input.id, "Rev organization");
      return { rev_org: present(record.data) };
    }
    if (input.account === undefined) {
      throw fieldError(
        "missing_required_field",
        "id",
        "Send 'id', or 'account' for that account's default Rev organization.",
      );
    }
    const account = await mustGet(ctx, [FAMILIES.account.kind], input.account, "Account");
    const primary = await primaryOf(ctx, account.id);
    if (!primary) throw notFound(`A Rev organization of account '${input.account}'`);
    const record = await mustGet<RevOrg>(ctx, [FAMILIES.rev_org.kind], primary.id, "Rev organization");
    return { rev_org: present(record.data) };
  },

  // The fields sent replace the stored ones; custom_fields merges field by field; external_ref stays unique
  // (the store's unique index answers a taken one with 409 conflict).
  "rev-orgs.update": async (ctx, input) => {
    const current = await mustGet<RevOrg>(ctx, [FAMILIES.rev_org.kind], input.id, "Rev organization");
    const fragmentsSent = input.custom_schema_fragments ?? [];
    const fragments = [...new Set([...(current.data.custom_schema_fragments ?? []), ...fragmentsSent])];
    const spec = specOf(fragments);
    const checked =
      input.custom_fields !== undefined || fragmentsSent.length > 0
        ? checkCustomFields(input.custom_fields, spec, LEAF_TYPE)
        : [];
    const updated = await ctx.store.updateRecord<StoredRevOrg>(
      ctx.actor,
      FAMILIES.rev_org.kind,
      current.id,
      (stored) => {
        const data: StoredRevOrg = { ...stored.data };
        if (input.display_name !== undefined) data.display_name = input.display_name;
        if (input.description !== undefined) data.description = input.description;
        if (input.domain !== undefined) data.domain = input.domain;
        if (input.environment !== undefined) data.environment = input.environment;
        if (input.tier !== undefined) data.tier = input.tier;
        if (input.external_ref !== undefined) data.external_ref = input.external_ref;
        if (input.custom_fields !== undefined)
          data.custom_fields = { ...stored.data.custom_fields, ...input.custom_fields };
        const allFragments = [
          ...new Set([...(stored.data.custom_schema_fragments ?? []), ...fragments, ...checked]),
        ];
        if (allFragments.length > 0) data.custom_schema_fragments = allFragments;
        if (spec.subtype !== undefined) data.subtype = spec.subtype;
        return {
          data,
          label: data.display_name ?? stored.label,
          ...(spec.subtype !== undefined ? { subtype: spec.subtype } : {}),
          ...(input.external_ref !== undefined ? { external_ref: input.external_ref } : {}),
        };
      },
    );
    return { rev_org: present(updated.data) };
  },

  // sort_by: display_name, created_date, modified_date, object_version.
  "rev-orgs.list": async (ctx, input) => {
    const { items, ...cursors } = await listPage<RevOrg>(ctx, FAMILIES.rev_org.kind, input, {
      filter: allOf(
        refIn("account", input.account),
        valueIn("label", input.display_name),
        valueIn("external_ref", input.external_ref),
        refIn("created_by", input.created_by),
        dateFilter("created_date", input.created_date),
        dateFilter("modified_date", input.modified_date),
      ),
      sortable: { display_name: { path: "label" } },
    });
    return { rev_orgs: items.map(present), ...cursors };
  },
} satisfies Partial<Handlers>;
