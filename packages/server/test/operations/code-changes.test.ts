// code-changes.create / get / list through real HTTP: shapes, list filters, cursors and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("code changes on %s", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("code changes", () => {
    describe("code-changes.create", () => {
      it("records a code change with every field and gets it back", async () => {
        const body = {
          title: "Add retries to the exporter",
          branch: "feature/retries",
          target_branch: "main",
          commit_id: "5f1c2a9",
          closed_date: "2026-11-02T09:15:00.000Z",
          description: "Retries failed exports three times.",
          external_identifier: "PR-42",
          repo_url: "https://git.example.com/acme/app",
          source: "github",
          total_loc: { file_count: 3, lines_added: 40, lines_deleted: 2, lines_modified: 5 },
          filtered_loc: { file_count: 2, lines_added: 30, lines_deleted: 1, lines_modified: 4 },
        };
        const res = await server.post("/code-changes.create", body);
        expect(res.status).toBe(201);
        expect(res.body.code_change).toMatchObject({ ...body, object_version: 1 });
        expect(res.body.code_change.display_id).toMatch(/^CC-\d+$/);
        const got = await server.call("GET", `/code-changes.get?id=${res.body.code_change.display_id}`);
        expect(got.body.code_change).toEqual(res.body.code_change);
      });

      it("validates the body", async () => {
        expect((await server.post("/code-changes.create", {})).body).toMatchObject({
          type: "missing_required_field",
          field_name: "title",
        });
        const negative = await server.post("/code-changes.create", {
          title: "x",
          total_loc: { lines_added: -1 },
        });
        expect(negative.status).toBe(400);
        const badUrl = await server.post("/code-changes.create", { title: "x", repo_url: "not a url" });
        expect(badUrl.status).toBe(400);
      });
    });

    describe("code-changes.list", () => {
      it("lists code changes sorted and paged", async () => {
        for (const title of ["b-change", "a-change", "c-change"])
          await server.post("/code-changes.create", { title });
        const all = await server.call("GET", "/code-changes.list?limit=100");
        expect(all.status).toBe(200);
        const titles = all.body.code_changes.map((c: { title: string }) => c.title);
        expect(titles.slice(-3)).toEqual(["b-change", "a-change", "c-change"]);
        const sorted = await server.post("/code-changes.list", { sort_by: ["title:asc"], limit: 2 });
        expect(sorted.body.code_changes.map((c: { title: string }) => c.title)).toEqual([
          "Add retries to the exporter",
          "a-change",
        ]);
        const next = await server.post("/code-changes.list", {
          sort_by: ["title:asc"],
          limit: 2,
          cursor: sorted.body.next_cursor,
        });
        expect(next.body.code_changes.map((c: { title: string }) => c.title)).toEqual([
          "b-change",
          "c-change",
        ]);
      });
    });

    it("needs the code_change scopes", async () => {
      for (const scope of ["code_change:write", "code_change:all"]) {
        expect(
          (await server.post("/code-changes.create", { title: scope }, await server.token([scope]))).status,
        ).toBe(201);
      }
      const readOnly = await server.token(["code_change:read"]);
      expect((await server.post("/code-changes.create", { title: "no" }, readOnly)).status).toBe(403);
      expect((await server.post("/code-changes.list", {}, readOnly)).status).toBe(200);
      expect((await server.post("/code-changes.list", {}, await server.token(["tag:read"]))).status).toBe(
        403,
      );
    });
  });

  describe("code-changes.get", () => {
    it("gets a code change by id or display id with either method, and 404s an unknown one", async () => {
      const made = (await server.post("/code-changes.create", { title: "Fix the flaky export" })).body
        .code_change;
      const byId = await server.call("GET", `/code-changes.get?id=${encodeURIComponent(made.id)}`);
      expect(byId.status).toBe(200);
      expect(byId.body.code_change).toEqual(made);
      expect((await server.post("/code-changes.get", { id: made.display_id })).body).toEqual(byId.body);
      const unknown = await server.post("/code-changes.get", { id: "CC-99999" });
      expect([unknown.status, unknown.body.type]).toEqual([404, "not_found"]);
    });
  });
});
