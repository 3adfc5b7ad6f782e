import type { Tag } from "@workapi/types";
import { allOf, listPage } from "./common.js";
import type { Handlers } from "./types.js";

export const tags = {
  "tags.list": async (ctx, input) => {
    const { items, ...cursors } = await listPage<Tag>(ctx, "tag", input, {
      filter: allOf(input.name?.length ? { op: "in", path: "label", values: input.name } : undefined),
      sortable: { name: { path: "label" } },
    });
    return { tags: items, ...cursors };
  },
} satisfies Partial<Handlers>;
