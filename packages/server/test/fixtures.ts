// Records for the tests, written through the store (the create operations come with the next issue).
import type { Article, CodeChange, Tag } from "@workapi/types";
import type { Actor, Store } from "../src/store/types.js";

export function createTag(store: Store, actor: Actor, name: string, extra: Partial<Tag> = {}) {
  return store.createRecord<Partial<Tag>>(actor, {
    kind: "tag",
    idType: "tag",
    prefix: "TAG",
    label: name,
    data: { name, allowed_values: [], ...extra },
  });
}

export function createCodeChange(store: Store, actor: Actor, title: string) {
  return store.createRecord<Partial<CodeChange>>(actor, {
    kind: "code_change",
    idType: "code_change",
    prefix: "CC",
    label: title,
    data: {
      title,
      branch: "feature/login",
      target_branch: "main",
      commit_id: "5f1c2a9",
      repo_url: "https://git.example.com/acme/app",
      source: "github",
      total_loc: { file_count: 3, lines_added: 40, lines_deleted: 2, lines_modified: 5 },
    },
  });
}

export function createArticle(store: Store, actor: Actor, title: string, parentId?: string) {
  return store.createRecord<Partial<Article>>(actor, {
    kind: "article",
    idType: "article",
    prefix: "ART",
    label: title,
    parent_id: parentId ?? null,
    data: {
      title,
      article_type: "article",
      status: "published",
      owned_by: [actor.user],
      resource: { url: "https://docs.example.com/guide" },
      ...(parentId ? { parent: { id: parentId, display_id: parentId } } : {}),
    },
  });
}
