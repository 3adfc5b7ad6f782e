import type { Account } from "@workapi/types";
import { apiError } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import { dateFilter, refIn, valueIn } from "./support/filters.js";
import { allOf, mustGet, storedPage } from "./support/records.js";
import { FAMILIES, resolveUsers } from "./support/references.js";

export const accounts = {
  "accounts.create": async (ctx, input) => {
    // External references are unique among the organization's accounts. The check runs inside the
    // request's transaction, so it sees every account committed before it.
    const refs = input.external_refs ?? [];
    if (refs.length > 0) {
      const [taken] = await ctx.store.findRecords<Account>(ctx.org.id, FAMILIES.account.kind, {
        filter: { op: "any", path: "external_refs", values: refs },
        limit: 1,
      });
      if (taken) {
        const shared = refs.filter((ref) => taken.data.external_refs?.includes(ref));
        throw apiError(
          "conflict",
          `Account ${taken.display_id} already has the external reference ${shared.join(", ")}.`,
        );
      }
    }
    // Left out, the owner is the caller.
    const owners = input.owned_by ?? [ctx.user.id];
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.account,
      label: input.display_name,
      data: {
        display_name: input.display_name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        domains: input.domains ?? [],
        external_refs: refs,
        owned_by: await resolveUsers(ctx, "owned_by", owners),
        ...(input.tier !== undefined ? { tier: input.tier } : {}),
        websites: input.websites ?? [],
      },
    });
    return { account: record.data };
  },

  "accounts.get": async (ctx, input) => {
    const record = await mustGet<Account>(ctx, [FAMILIES.account.kind], input.id, "Account");
    return { account: record.data };
  },

  // sort_by: display_name, created_date, modified_date, object_version.
  "accounts.list": async (ctx, input) => {
    return storedPage<"accounts", Account>(ctx, "accounts", FAMILIES.account.kind, input, {
      filter: allOf(
        valueIn("label", input.display_name),
        input.external_refs?.length
          ? { op: "any", path: "external_refs", values: input.external_refs }
          : undefined,
        refIn("created_by", input.created_by),
        dateFilter("created_date", input.created_date),
        dateFilter("modified_date", input.modified_date),
      ),
      sortable: { display_name: { path: "label" } },
    });
  },
} satisfies Partial<Handlers>;
