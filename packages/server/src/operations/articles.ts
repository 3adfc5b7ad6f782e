import type { Article } from "@workapi/types";
import { notFound } from "../http/errors.js";
import { mustGet } from "./common.js";
import type { Handlers } from "./types.js";

export const articles = {
  "articles.get": async (ctx, input) => {
    if (input.parent_article_id) {
      // `id` names a content block of the article `parent_article_id`.
      const parent = await mustGet<Article>(ctx, ["article"], input.parent_article_id, "Article");
      const block = await ctx.store.getRecord<Article>(ctx.org.id, ["article"], input.id);
      if (!block || block.parent_id !== parent.id) {
        throw notFound(`Content block '${input.id}' of article '${input.parent_article_id}'`);
      }
      return { article: block.data };
    }
    const record = await mustGet<Article>(ctx, ["article"], input.id, "Article");
    return { article: record.data };
  },
} satisfies Partial<Handlers>;
