// code-changes.create / list, tags.create, dev-users.self / list, auth-tokens.create / delete and
// surveys.create / list through real HTTP: shapes, uniqueness (409), the token scope-subset rule and
// ownership, the survey bounds and the custom-schema rule, list filters, cursors and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevUser } from "../src/store/types.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

describe.each(databases)("code changes, tags, users, tokens and surveys on %s", (database) => {
  let server: TestServer;

  const post = (path: string, body: unknown, token?: string) =>
    server.call("POST", path, { body, ...(token ? { token } : {}) });

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("code changes", () => {
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
      const res = await post("/code-changes.create", body);
      expect(res.status).toBe(201);
      expect(res.body.code_change).toMatchObject({ ...body, object_version: 1 });
      expect(res.body.code_change.display_id).toMatch(/^CC-\d+$/);
      const got = await server.call("GET", `/code-changes.get?id=${res.body.code_change.display_id}`);
      expect(got.body.code_change).toEqual(res.body.code_change);
    });

    it("validates the body", async () => {
      expect((await post("/code-changes.create", {})).body).toMatchObject({
        type: "missing_required_field",
        field_name: "title",
      });
      const negative = await post("/code-changes.create", { title: "x", total_loc: { lines_added: -1 } });
      expect(negative.status).toBe(400);
      const badUrl = await post("/code-changes.create", { title: "x", repo_url: "not a url" });
      expect(badUrl.status).toBe(400);
    });

    it("lists code changes sorted and paged", async () => {
      for (const title of ["b-change", "a-change", "c-change"]) await post("/code-changes.create", { title });
      const all = await server.call("GET", "/code-changes.list?limit=100");
      expect(all.status).toBe(200);
      const titles = all.body.code_changes.map((c: { title: string }) => c.title);
      expect(titles.slice(-3)).toEqual(["b-change", "a-change", "c-change"]);
      const sorted = await post("/code-changes.list", { sort_by: ["title:asc"], limit: 2 });
      expect(sorted.body.code_changes.map((c: { title: string }) => c.title)).toEqual([
        "Add retries to the exporter",
        "a-change",
      ]);
      const next = await post("/code-changes.list", {
        sort_by: ["title:asc"],
        limit: 2,
        cursor: sorted.body.next_cursor,
      });
      expect(next.body.code_changes.map((c: { title: string }) => c.title)).toEqual(["b-change", "c-change"]);
    });

    it("needs the code_change scopes", async () => {
      for (const scope of ["code_change:write", "code_change:all"]) {
        expect(
          (await post("/code-changes.create", { title: scope }, await server.token([scope]))).status,
        ).toBe(201);
      }
      const readOnly = await server.token(["code_change:read"]);
      expect((await post("/code-changes.create", { title: "no" }, readOnly)).status).toBe(403);
      expect((await post("/code-changes.list", {}, readOnly)).status).toBe(200);
      expect((await post("/code-changes.list", {}, await server.token(["tag:read"]))).status).toBe(403);
    });
  });

  describe("tags.create", () => {
    it("creates a tag, and refuses a second one with the same name with 409", async () => {
      const res = await post("/tags.create", {
        name: "priority",
        description: "How urgent it is.",
        allowed_values: ["low", "high"],
        style_new: { color: "#d9534f" },
      });
      expect(res.status).toBe(201);
      expect(res.body.tag).toMatchObject({
        name: "priority",
        description: "How urgent it is.",
        allowed_values: ["low", "high"],
        style_new: { color: "#d9534f" },
      });
      expect(res.body.tag.display_id).toMatch(/^TAG-\d+$/);
      const plain = await post("/tags.create", { name: "plain" });
      expect(plain.body.tag.allowed_values).toEqual([]);
      const again = await post("/tags.create", { name: "priority" });
      expect(again.status).toBe(409);
      expect(again.body.type).toBe("conflict");
      const listed = await server.call("GET", "/tags.list?name=priority");
      expect(listed.body.tags).toHaveLength(1);
    });

    it("validates the body and needs tag:write or tag:all", async () => {
      expect((await post("/tags.create", { name: "" })).status).toBe(400);
      expect((await post("/tags.create", { name: "dup", allowed_values: ["a", "a"] })).status).toBe(400);
      expect((await post("/tags.create", { name: "t1" }, await server.token(["tag:write"]))).status).toBe(
        201,
      );
      expect((await post("/tags.create", { name: "t2" }, await server.token(["tag:all"]))).status).toBe(201);
      expect((await post("/tags.create", { name: "t3" }, await server.token(["tag:read"]))).status).toBe(403);
    });
  });

  describe("dev users", () => {
    let fresh: TestServer;
    let users: DevUser[];
    beforeAll(async () => {
      fresh = await startTestServer(database);
      users = [fresh.admin];
      for (const [email, name] of [
        ["zoe@example.com", "Zoe Zimmer"],
        ["bob@example.com", "Bob Baker"],
        ["amy@example.com", "Amy Adams"],
      ] as const) {
        users.push(await fresh.store.createDevUser(fresh.org, { email, full_name: name }));
      }
    });
    afterAll(async () => {
      expect(fresh.app.violations).toEqual([]);
      await fresh.close();
    });

    it("answers the caller with any valid token", async () => {
      const zoe = users[1] as DevUser;
      const token = await fresh.token([], { user: zoe });
      for (const res of [
        await fresh.call("GET", "/dev-users.self", { token }),
        await fresh.call("POST", "/dev-users.self", { token, body: {} }),
      ]) {
        expect(res.status).toBe(200);
        expect(res.body.dev_user).toEqual({
          id: zoe.id,
          display_id: zoe.display_id,
          created_date: zoe.created_date,
          display_name: zoe.display_name,
          email: "zoe@example.com",
          full_name: "Zoe Zimmer",
          state: zoe.state,
        });
      }
      expect((await fresh.call("GET", "/dev-users.self", { token: null })).status).toBe(401);
    });

    it("lists the organization's users with filters, sorting and cursors both ways", async () => {
      const all = await fresh.call("GET", "/dev-users.list");
      expect(all.status).toBe(200);
      expect(all.body.dev_users.map((u: { id: string }) => u.id)).toEqual(users.map((u) => u.id));
      const byEmail = await fresh.call("GET", "/dev-users.list?email=BOB@example.com,amy@example.com");
      expect(byEmail.body.dev_users.map((u: { email: string }) => u.email)).toEqual([
        "bob@example.com",
        "amy@example.com",
      ]);
      const byState = await fresh.call("POST", "/dev-users.list", { body: { state: ["inactive"] } });
      expect(byState.body.dev_users).toEqual([]);
      const active = await fresh.call("POST", "/dev-users.list", { body: { state: [fresh.admin.state] } });
      expect(active.body.dev_users).toHaveLength(4);

      const names: string[] = [];
      let page = await fresh.call("POST", "/dev-users.list", {
        body: { sort_by: ["full_name:asc"], limit: 3 },
      });
      names.push(...page.body.dev_users.map((u: { full_name: string }) => u.full_name));
      expect(page.body.prev_cursor).toBeUndefined();
      page = await fresh.call("POST", "/dev-users.list", {
        body: { sort_by: ["full_name:asc"], limit: 3, cursor: page.body.next_cursor },
      });
      names.push(...page.body.dev_users.map((u: { full_name: string }) => u.full_name));
      expect(page.body.next_cursor).toBeUndefined();
      expect(names).toEqual([...users.map((u) => u.full_name)].sort());
      const back = await fresh.call("POST", "/dev-users.list", {
        body: { sort_by: ["full_name:asc"], limit: 3, mode: "before", cursor: page.body.prev_cursor },
      });
      expect(back.body.dev_users.map((u: { full_name: string }) => u.full_name)).toEqual(names.slice(0, 3));
      const last = await fresh.call("POST", "/dev-users.list", {
        body: { sort_by: ["full_name:asc"], limit: 2, mode: "before" },
      });
      expect(last.body.dev_users.map((u: { full_name: string }) => u.full_name)).toEqual(names.slice(2));
      expect(last.body.next_cursor).toBeUndefined();

      // A cursor belongs to its order and filters.
      const other = await fresh.call("POST", "/dev-users.list", {
        body: { sort_by: ["email:asc"], cursor: back.body.next_cursor },
      });
      expect(other.status).toBe(400);
      expect(other.body).toMatchObject({ type: "invalid_field", field_name: "cursor" });
      const garbage = await fresh.call("POST", "/dev-users.list", { body: { cursor: "not-a-cursor" } });
      expect(garbage.body).toMatchObject({ type: "invalid_field", field_name: "cursor" });
      const badSort = await fresh.call("POST", "/dev-users.list", { body: { sort_by: ["salary:asc"] } });
      expect(badSort.body.type).toBe("value_not_permitted");
    });

    it("never shows another organization's users", async () => {
      const other = await fresh.otherOrg();
      const theirs = await fresh.call("GET", "/dev-users.list", { token: other.token });
      expect(theirs.body.dev_users.map((u: { id: string }) => u.id)).toEqual([other.admin.id]);
    });

    it("needs a dev_user scope to list", async () => {
      for (const scope of ["dev_user:read", "dev_user:write", "dev_user:all"]) {
        const res = await fresh.call("GET", "/dev-users.list", { token: await fresh.token([scope]) });
        expect(res.status, scope).toBe(200);
      }
      expect(
        (await fresh.call("GET", "/dev-users.list", { token: await fresh.token(["tag:read"]) })).status,
      ).toBe(403);
    });
  });

  describe("auth tokens", () => {
    it("issues a token with a subset of the caller's scopes, shown once", async () => {
      const caller = await server.token(["tag:read", "tag:write", "article:read"]);
      const res = await post(
        "/auth-tokens.create",
        {
          requested_token_type: "urn:vendor:params:oauth:token-type:pat",
          scope: "tag:read article:read",
          expires_in: 3600,
          token_hint: "reporting script",
        },
        caller,
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: "bearer",
        expires_in: 3600,
        scope: "article:read tag:read",
      });
      const secret = res.body.access_token;
      // The new token works, with its own scopes only.
      expect((await server.call("GET", "/tags.list", { token: secret })).status).toBe(200);
      expect((await post("/tags.create", { name: "nope" }, secret)).status).toBe(403);
      // Its metadata is listed, never its secret.
      const listed = await server.call("GET", "/auth-tokens.list", { token: secret });
      const meta = listed.body.tokens.find(
        (t: { scopes: string[] }) => t.scopes.join(" ") === "article:read tag:read",
      );
      expect(meta).toMatchObject({ subject: server.admin.id, status: "active" });
      // The lifetime runs from the request (the store stamps issued_at a moment later).
      const lifetime = Date.parse(meta.expires_at) - Date.parse(meta.issued_at);
      expect(lifetime).toBeGreaterThan(3_595_000);
      expect(lifetime).toBeLessThanOrEqual(3_600_000);
      expect(JSON.stringify(listed.body)).not.toContain(secret);
    });

    it("refuses scopes the caller's token does not hold with 403", async () => {
      const caller = await server.token(["tag:read"]);
      const res = await post("/auth-tokens.create", { scope: "tag:read tag:write" }, caller);
      expect(res.status).toBe(403);
      expect(res.body.type).toBe("forbidden");
      expect(res.body.detail).toContain("tag:write");
    });

    it("gives a token like the caller's own for an empty body", async () => {
      const caller = await server.token(["tag:read", "survey:read"], {
        type: "urn:vendor:params:oauth:token-type:aat",
      });
      const res = await post("/auth-tokens.create", {}, caller);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ scope: "survey:read tag:read", expires_in: 30 * 24 * 60 * 60 });
      const listed = await server.call("GET", "/auth-tokens.list", { token: res.body.access_token });
      const meta = listed.body.tokens.find((t: { token_hint: string }) =>
        res.body.access_token.endsWith(t.token_hint),
      );
      expect(meta.requested_token_type).toBe("urn:vendor:params:oauth:token-type:aat");
    });

    it("validates the request", async () => {
      expect((await post("/auth-tokens.create", { expires_in: 0 })).status).toBe(400);
      const forever = await post("/auth-tokens.create", { expires_in: 1e15 });
      expect(forever.body).toMatchObject({ type: "value_not_permitted", field_name: "expires_in" });
      expect((await post("/auth-tokens.create", { scope: "a  b" })).status).toBe(400);
      const type = await post("/auth-tokens.create", { requested_token_type: "urn:nothing" });
      expect(type.status).toBe(400);
    });

    it("revokes the caller's own token, refuses another user's and 404s an unknown one", async () => {
      const made = await post("/auth-tokens.create", { scope: "tag:read" });
      const secret = made.body.access_token;
      const own = (await server.call("GET", "/auth-tokens.list")).body.tokens.find(
        (t: { token_hint: string }) => secret.endsWith(t.token_hint),
      );
      const someone = await server.store.createDevUser(server.org, {
        email: "s@example.com",
        full_name: "S",
      });
      const theirs = await server.token(["tag:read"], { user: someone });
      const denied = await post("/auth-tokens.delete", { token_id: own.id }, theirs);
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [own.id] });
      expect((await server.call("GET", "/tags.list", { token: secret })).status).toBe(200);

      const res = await post("/auth-tokens.delete", { token_id: own.display_id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      const after = await server.call("GET", "/tags.list", { token: secret });
      expect(after.status).toBe(401);
      expect(after.body.type).toBe("token_revoked");

      const unknown = await post("/auth-tokens.delete", { token_id: "TOKEN-99999" });
      expect(unknown.status).toBe(404);
      const other = await server.otherOrg();
      const foreign = await server.call("POST", "/auth-tokens.delete", {
        token: other.token,
        body: { token_id: own.id },
      });
      expect(foreign.status).toBe(404);
      // A token may revoke itself; it needs no scope.
      const self = await server.token([]);
      const selfId = (await server.call("GET", "/auth-tokens.list", { token: self })).body.tokens.find(
        (t: { token_hint: string }) => self.endsWith(t.token_hint),
      ).id;
      expect((await post("/auth-tokens.delete", { token_id: selfId }, self)).status).toBe(200);
      expect((await server.call("GET", "/dev-users.self", { token: self })).status).toBe(401);
    });
  });

  describe("surveys", () => {
    const field = { name: "score", field_type: "int", is_required: true, ui: { display_name: "Score" } };

    it("creates a survey with its texts and schemas", async () => {
      const body = {
        name: "After-support survey",
        title: "How did we do?",
        description: "Asked when a conversation closes.",
        header: "Your opinion counts",
        introductory_text: "Two questions.",
        response_text: "Thank you!",
        schema: [field],
        schema_with_metadata: [
          { field, question: "How likely are you to recommend us?", metadata: { scale: 10 } },
        ],
      };
      const res = await post("/surveys.create", body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.survey).toMatchObject({ ...body, object_version: 1 });
      expect(res.body.survey.display_id).toMatch(/^SURVEY-\d+$/);
    });

    it.each([
      [{ name: "" }, "name"],
      [{ name: "n".repeat(101) }, "name"],
      [{ name: "ok", description: "d".repeat(1001) }, "description"],
      [{ name: "ok", header: "h".repeat(1001) }, "header"],
      [{ name: "ok", introductory_text: "i".repeat(1001) }, "introductory_text"],
      [{ name: "ok", response_text: "r".repeat(1001) }, "response_text"],
      [{ name: "ok", title: "t".repeat(1001) }, "title"],
    ])("refuses %# beyond the bounds, naming %s", async (body, name) => {
      const res = await post("/surveys.create", body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "value_not_permitted", field_name: name });
    });

    it("accepts the bounds themselves", async () => {
      const res = await post("/surveys.create", {
        name: "n".repeat(100),
        description: "d".repeat(1000),
        title: "t".repeat(1000),
      });
      expect(res.status).toBe(201);
    });

    it("refuses custom fields without their schema", async () => {
      const res = await post("/surveys.create", { name: "Custom", custom_fields: { tnt__team: "emea" } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: "customization_validation_error",
        field_name: "custom_fields.tnt__team",
      });
      const ok = await post("/surveys.create", {
        name: "Custom ok",
        custom_fields: { tnt__team: "emea" },
        custom_schema_spec: { tenant_fragment: true },
      });
      expect(ok.status).toBe(201);
      expect(ok.body.survey).toMatchObject({
        custom_fields: { tnt__team: "emea" },
        custom_schema_fragments: ["tenant_fragment:survey"],
      });
    });

    it("lists surveys by name and creator", async () => {
      const user = await server.store.createDevUser(server.org, { email: "q@example.com", full_name: "Q" });
      await post("/surveys.create", { name: "By Q" }, await server.token(["survey:write"], { user }));
      const byName = await server.call("GET", "/surveys.list?name=By Q");
      expect(byName.body.surveys.map((s: { name: string }) => s.name)).toEqual(["By Q"]);
      const byCreator = await post("/surveys.list", { created_by: [user.display_id] });
      expect(byCreator.body.surveys.map((s: { name: string }) => s.name)).toEqual(["By Q"]);
      const sorted = await post("/surveys.list", { sort_by: ["name:desc"], limit: 1 });
      expect(sorted.body.surveys[0].name).toBe("n".repeat(100));
      expect(sorted.body.next_cursor).toEqual(expect.any(String));
    });

    it("needs the survey scopes", async () => {
      for (const scope of ["survey:write", "survey:all"]) {
        expect((await post("/surveys.create", { name: scope }, await server.token([scope]))).status).toBe(
          201,
        );
      }
      const readOnly = await server.token(["survey:read"]);
      expect((await post("/surveys.create", { name: "no" }, readOnly)).status).toBe(403);
      expect((await post("/surveys.list", {}, readOnly)).status).toBe(200);
      expect((await post("/surveys.list", {}, await server.token(["tag:read"]))).status).toBe(403);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
