import type { CodeChange } from "@workapi/types";
import type { Handlers } from "../core/handlers.js";
import { mustGet, storedPage } from "./support/records.js";
import { FAMILIES } from "./support/references.js";

export const codeChanges = {
  "code-changes.create": async (ctx, input) => {
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.code_change,
      label: input.title,
      data: { ...input },
    });
    return { code_change: record.data };
  },

  "code-changes.get": async (ctx, input) => {
    const record = await mustGet<CodeChange>(ctx, ["code_change"], input.id, "Code change");
    return { code_change: record.data };
  },

  // sort_by: title, created_date, modified_date, object_version.
  "code-changes.list": async (ctx, input) => {
    return storedPage<"code_changes", CodeChange>(ctx, "code_changes", FAMILIES.code_change.kind, input, {
      sortable: { title: { path: "label" } },
    });
  },
} satisfies Partial<Handlers>;
