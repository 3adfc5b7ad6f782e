// articles.create and articles.list through real HTTP: required fields and defaults, parents (content
// blocks found through articles.get), parts, authors, tags and files, unknown ids, the list filters with
// `total` and cursors, and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("articles on %s", (database) => {
  let server: TestServer;
  let author: { id: string; display_id: string };
  let product: { id: string; display_id: string; name: string };
  let tag: { id: string };

  const create = (body: Record<string, unknown>, token?: string) =>
    server.post(
      "/articles.create",
      { owned_by: [server.admin.id], resource: { url: "https://docs.example.com/a" }, ...body },
      token,
    );

  beforeAll(async () => {
    server = await startTestServer(database);
    author = await server.store.createDevUser(server.org, {
      email: "ann@example.com",
      full_name: "Ann Author",
    });
    const part = await server.post("/parts.create", {
      type: "product",
      name: "Billing",
      owned_by: [server.admin.id],
    });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    product = part.body.part;
    tag = (await server.post("/tags.create", { name: "how-to" })).body.tag;
  });
  afterAll(async () => {
    await server.close();
  });

  describe("articles.create", () => {
    it("creates a draft article of type article unless told", async () => {
      const res = await create({ title: "Getting started" });
      expect(res.status).toBe(201);
      expect(res.body.article).toMatchObject({
        title: "Getting started",
        status: "draft",
        article_type: "article",
        owned_by: [{ id: server.admin.id }],
        resource: { url: "https://docs.example.com/a" },
        num_upvotes: 0,
        num_downvotes: 0,
        object_version: 1,
      });
      expect(res.body.article.display_id).toMatch(/^ART-\d+$/);
      expect(res.body.article).not.toHaveProperty("parent");
    });

    it("keeps every field, and files become the article's", async () => {
      const content = (await server.post("/artifacts.prepare", { file_name: "guide.pdf" })).body.id;
      const extracted = (await server.post("/artifacts.prepare", { file_name: "guide.txt" })).body.id;
      const res = await create({
        title: "Exporting a report",
        description: "How to export a report as CSV.",
        status: "published",
        article_type: "faq",
        owned_by: [author.display_id],
        authored_by: [author.id, server.admin.display_id],
        applies_to_parts: [product.display_id],
        resource: { artifacts: [content], url: "https://docs.example.com/export" },
        extracted_content: [extracted],
        tags: [{ id: tag.id }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const article = res.body.article;
      expect(article).toMatchObject({
        title: "Exporting a report",
        description: "How to export a report as CSV.",
        status: "published",
        article_type: "faq",
        owned_by: [{ id: author.id }],
        authored_by: [{ id: author.id }, { id: server.admin.id }],
        applies_to_parts: [{ id: product.id, type: "product", name: "Billing" }],
        resource: { artifacts: [{ id: content }], url: "https://docs.example.com/export" },
        extracted_content: [{ id: extracted }],
        tags: [{ tag: { id: tag.id, name: "how-to" } }],
      });
      const files = await server.post("/artifacts.list", { parent_id: article.display_id });
      expect(files.body.artifacts.map((a: { id: string }) => a.id).sort()).toEqual(
        [content, extracted].sort(),
      );
      const got = await server.call("GET", `/articles.get?id=${article.display_id}`);
      expect(got.body.article).toEqual(article);
    });

    it("puts an article under its parent, where articles.get finds the content block", async () => {
      const parent = (await create({ title: "Handbook" })).body.article;
      const block = await create({ title: "Chapter 1", parent: parent.display_id });
      expect(block.status).toBe(201);
      expect(block.body.article.parent).toEqual({
        id: parent.id,
        display_id: parent.display_id,
        title: "Handbook",
      });
      const viaParent = await server.post("/articles.get", {
        id: block.body.article.id,
        parent_article_id: parent.id,
      });
      expect(viaParent.status).toBe(200);
      expect(viaParent.body.article.title).toBe("Chapter 1");
      const wrong = await server.post("/articles.get", {
        id: parent.id,
        parent_article_id: block.body.article.id,
      });
      expect(wrong.status).toBe(404);
    });

    it.each([
      [{ parent: "ART-99999" }, "parent"],
      [{ owned_by: ["DEVU-99999"] }, "owned_by.0"],
      [{ authored_by: ["nobody"] }, "authored_by.0"],
      [{ applies_to_parts: ["PROD-99999"] }, "applies_to_parts.0"],
      [{ resource: { artifacts: ["ARTIFACT-99999"] } }, "resource.artifacts.0"],
      [{ extracted_content: ["ARTIFACT-99999"] }, "extracted_content.0"],
      [{ tags: [{ id: "TAG-99999" }] }, "tags.0.id"],
    ])("refuses the unknown id in %j as invalid_id naming %s", async (body, field) => {
      const res = await create({ title: "Bad", ...body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "invalid_id", field_name: field });
    });

    it("refuses a parent that is not an article", async () => {
      const res = await create({ title: "Orphan", parent: product.id });
      expect(res.body).toMatchObject({ type: "invalid_id", field_name: "parent" });
    });

    it("needs title, owners and a resource", async () => {
      const noResource = await server.post("/articles.create", { title: "T", owned_by: [server.admin.id] });
      expect(noResource.body).toMatchObject({ type: "missing_required_field", field_name: "resource" });
      const emptyResource = await create({ title: "T", resource: {} });
      expect(emptyResource.status).toBe(400);
      const noOwners = await create({ title: "T", owned_by: [] });
      expect(noOwners.status).toBe(400);
      const badStatus = await create({ title: "T", status: "gone" });
      expect(badStatus.body).toMatchObject({ type: "invalid_enum_value", field_name: "status" });
    });

    it("needs article:write or article:all", async () => {
      for (const scope of ["article:write", "article:all"]) {
        expect((await create({ title: scope }, await server.token([scope]))).status, scope).toBe(201);
      }
      const denied = await create({ title: "No" }, await server.token(["article:read"]));
      expect(denied.status).toBe(403);
    });
  });

  describe("articles.list", () => {
    let fresh: TestServer;
    let user: { id: string; display_id: string };
    let handbook: { id: string; display_id: string };
    const titles = (res: { body: { articles: Array<{ title: string }> } }) =>
      res.body.articles.map((article) => article.title).sort();

    beforeAll(async () => {
      fresh = await startTestServer(database);
      user = await fresh.store.createDevUser(fresh.org, { email: "w@example.com", full_name: "Writer" });
      const part = (
        await fresh.call("POST", "/parts.create", {
          body: { type: "product", name: "P", owned_by: [fresh.admin.id] },
        })
      ).body.part;
      const make = async (body: Record<string, unknown>) =>
        (
          await fresh.call("POST", "/articles.create", {
            body: { owned_by: [fresh.admin.id], resource: { url: "https://x.example/" }, ...body },
          })
        ).body.article;
      handbook = await make({ title: "Handbook", status: "published" });
      await make({ title: "Chapter", parent: handbook.id, authored_by: [user.id] });
      await make({ title: "FAQ", article_type: "faq", owned_by: [user.id], applies_to_parts: [part.id] });
      await make({ title: "Old", status: "archived" });
    });
    afterAll(async () => {
      expect(fresh.app.violations).toEqual([]);
      await fresh.close();
    });

    it("applies each filter and counts the matches in total", async () => {
      const list = (body: unknown) => fresh.call("POST", "/articles.list", { body });
      const all = await list({});
      expect(titles(all)).toEqual(["Chapter", "FAQ", "Handbook", "Old"]);
      expect(all.body.total).toBe(4);
      const drafts = await list({ status: ["draft"] });
      expect(titles(drafts)).toEqual(["Chapter", "FAQ"]);
      expect(drafts.body.total).toBe(2);
      expect(titles(await list({ status: ["published", "archived"] }))).toEqual(["Handbook", "Old"]);
      expect(titles(await list({ article_type: ["faq"] }))).toEqual(["FAQ"]);
      expect(titles(await list({ authored_by: [user.display_id] }))).toEqual(["Chapter"]);
      expect(titles(await list({ owned_by: [user.id] }))).toEqual(["FAQ"]);
      expect(titles(await list({ applies_to_parts: ["PROD-1"] }))).toEqual(["FAQ"]);
      expect(titles(await list({ parent: [handbook.display_id] }))).toEqual(["Chapter"]);
      expect(
        titles(await fresh.call("GET", `/articles.list?parent=${encodeURIComponent(handbook.id)}`)),
      ).toEqual(["Chapter"]);
      expect(titles(await fresh.call("GET", "/articles.list?status=archived,draft"))).toEqual([
        "Chapter",
        "FAQ",
        "Old",
      ]);
    });

    it("gives the total of all pages alongside the cursors", async () => {
      const first = await fresh.call("POST", "/articles.list", {
        body: { limit: 3, sort_by: ["title:asc"] },
      });
      expect(first.body.articles.map((a: { title: string }) => a.title)).toEqual([
        "Chapter",
        "FAQ",
        "Handbook",
      ]);
      expect(first.body.total).toBe(4);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await fresh.call("POST", "/articles.list", {
        body: { limit: 3, sort_by: ["title:asc"], cursor: first.body.next_cursor },
      });
      expect(second.body.articles.map((a: { title: string }) => a.title)).toEqual(["Old"]);
      expect(second.body.total).toBe(4);
      expect(second.body.prev_cursor).toEqual(expect.any(String));
    });

    it("needs an article scope", async () => {
      const ok = await fresh.call("GET", "/articles.list", { token: await fresh.token(["article:read"]) });
      expect(ok.status).toBe(200);
      const denied = await fresh.call("GET", "/articles.list", { token: await fresh.token(["tag:read"]) });
      expect(denied.status).toBe(403);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });

  describe("articles.get", () => {
    it("gets an article by id or display id with either method, and 404s an unknown one", async () => {
      const made = (await create({ title: "Reading an invoice" })).body.article;
      const got = await server.call("GET", `/articles.get?id=${made.display_id}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body.article).toMatchObject({ id: made.id, title: "Reading an invoice" });
      expect((await server.post("/articles.get", { id: made.id })).body).toEqual(got.body);
      const unknown = await server.post("/articles.get", { id: "ART-99999" });
      expect([unknown.status, unknown.body.type]).toEqual([404, "not_found"]);
    });
  });
});
