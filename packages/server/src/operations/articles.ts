import type { Article } from "@workapi/types";
import { notFound } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import { attachArtifacts, checkArtifacts } from "./support/attachments.js";
import { refAny, refIn, valueIn } from "./support/filters.js";
import { allOf, listPage, mustGet } from "./support/records.js";
import { FAMILIES, resolveParts, resolveRecord, resolveTags, resolveUsers } from "./support/references.js";

export const articles = {
  "articles.create": async (ctx, input) => {
    // A content block is an article whose parent is another article (articles.get with parent_article_id).
    let parent: { id: string; display_id: string; title: string } | undefined;
    if (input.parent !== undefined) {
      const record = await resolveRecord<{ title?: string }>(
        ctx,
        "parent",
        [FAMILIES.article.kind],
        input.parent,
        "Article",
      );
      parent = { id: record.id, display_id: record.display_id, title: record.data.title ?? "" };
    }
    const resourceArtifacts = await checkArtifacts(ctx, "resource.artifacts", input.resource.artifacts);
    const extracted = await checkArtifacts(ctx, "extracted_content", input.extracted_content);
    const record = await ctx.store.createRecord(ctx.actor, {
      ...FAMILIES.article,
      label: input.title,
      parent_id: parent?.id ?? null,
      data: {
        title: input.title,
        ...(input.description !== undefined ? { description: input.description } : {}),
        article_type: input.article_type ?? "article",
        status: input.status ?? "draft",
        owned_by: await resolveUsers(ctx, "owned_by", input.owned_by),
        authored_by: await resolveUsers(ctx, "authored_by", input.authored_by),
        applies_to_parts: await resolveParts(ctx, "applies_to_parts", input.applies_to_parts),
        resource: {
          ...(input.resource.artifacts !== undefined ? { artifacts: resourceArtifacts } : {}),
          ...(input.resource.url !== undefined ? { url: input.resource.url } : {}),
        },
        extracted_content: extracted,
        ...(parent ? { parent } : {}),
        tags: await resolveTags(ctx, "tags", input.tags),
        num_upvotes: 0,
        num_downvotes: 0,
      },
    });
    await attachArtifacts(ctx, "resource.artifacts", resourceArtifacts, record.id);
    await attachArtifacts(ctx, "extracted_content", extracted, record.id);
    return { article: record.data };
  },

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

  // sort_by: title, created_date, modified_date, object_version. `total` counts the matches on all pages.
  "articles.list": async (ctx, input) => {
    const filter = allOf(
      refAny("applies_to_parts", input.applies_to_parts),
      valueIn("article_type", input.article_type),
      refAny("authored_by", input.authored_by),
      refAny("owned_by", input.owned_by),
      refIn("parent", input.parent),
      valueIn("status", input.status),
    );
    const { items, ...cursors } = await listPage<Article>(ctx, FAMILIES.article.kind, input, {
      filter,
      sortable: { title: { path: "label" } },
    });
    const total = await ctx.store.countRecords(ctx.org.id, FAMILIES.article.kind, filter);
    return { articles: items, total, ...cursors };
  },
} satisfies Partial<Handlers>;
