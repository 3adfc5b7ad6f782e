import type { Tag } from "@workapi/types";
import type { Handlers } from "../core/handlers.js";
import { allOf, storedPage } from "./support/records.js";
import { FAMILIES } from "./support/references.js";

export const tags = {
  // Names are unique per organization: the store's unique index answers a second one with a conflict (409).
  "tags.create": async (ctx, input) => {
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.tag,
      label: input.name,
      data: {
        name: input.name,
        ...(input.description !== undefined ? { description: input.description } : {}),
        allowed_values: input.allowed_values ?? [],
        ...(input.style_new !== undefined ? { style_new: input.style_new } : {}),
      },
    });
    return { tag: record.data };
  },

  "tags.list": async (ctx, input) => {
    return storedPage<"tags", Tag>(ctx, "tags", "tag", input, {
      filter: allOf(input.name?.length ? { op: "in", path: "label", values: input.name } : undefined),
      sortable: { name: { path: "label" } },
    });
  },
} satisfies Partial<Handlers>;
