import type { RevOrg } from "@workapi/types";
import { checkCustomFields } from "./changes.js";
import { allOf, listPage, mustGet } from "./common.js";
import { attachArtifacts, checkArtifacts } from "./content-artifacts.js";
import { dateFilter, refIn, valueIn } from "./filters.js";
import { FAMILIES, resolveRecord, resolveTags, resolveUsers } from "./refs.js";
import type { Handlers } from "./types.js";

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
    // external_ref goes into the indexed column: the store refuses a second one with a conflict (409).
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.rev_org,
      label: input.display_name,
      subtype: spec.subtype ?? null,
      external_ref: input.external_ref ?? null,
      data: {
        display_name: input.display_name,
        account: accountRef,
        primary_rev_org: { type: "account", ...accountRef },
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
    return { rev_org: record.data };
  },

  "rev-orgs.get": async (ctx, input) => {
    const record = await mustGet<RevOrg>(ctx, [FAMILIES.rev_org.kind], input.id, "Rev organization");
    return { rev_org: record.data };
  },

  // sort_by: display_name, created_date, modified_date, object_version.
  "rev-orgs.list": async (ctx, input) => {
    const { items, ...cursors } = await listPage<RevOrg>(ctx, FAMILIES.rev_org.kind, input, {
      filter: allOf(
        valueIn("label", input.display_name),
        valueIn("external_ref", input.external_ref),
        refIn("created_by", input.created_by),
        dateFilter("created_date", input.created_date),
        dateFilter("modified_date", input.modified_date),
      ),
      sortable: { display_name: { path: "label" } },
    });
    return { rev_orgs: items, ...cursors };
  },
} satisfies Partial<Handlers>;
