// The platform through real HTTP: typed errors for every failure, authentication, scopes, tenancy, and the
// first operations, on every database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonText } from "../src/core/json-text.js";
import { createArticle, createCodeChange, createTag } from "./fixtures.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

describe.each(databases)("on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database, {
      bodyLimit: 4096,
      handlers: {
        // Scripted failures: a handler that throws, and one that answers outside the contract.
        "stages.custom.get": async () => {
          throw new Error("database exploded with a secret stack");
        },
        "surveys.create": async () => ({ survey: { name: 42 } }) as never,
        // An answer sent as JSON text: within the contract with limit=1, outside it otherwise.
        "surveys.list": async (_ctx, input: { limit?: number }) =>
          new JsonText(input.limit === 1 ? '{"surveys":[]}' : '{"surveys":[{"name":42}]}') as never,
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  describe("errors", () => {
    it("answers an unknown path with a typed 404", async () => {
      const res = await server.call("GET", "/nothing.here");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        type: "not_found",
        message: "Not found.",
        detail: expect.stringContaining("/nothing.here"),
      });
    });

    it("answers a known path with the wrong method with 405 and Allow", async () => {
      const res = await server.call("DELETE", "/tags.list");
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, POST, HEAD");
      expect(res.body.type).toBe("bad_request");
      const write = await server.call("GET", "/works.delete");
      expect(write.status).toBe(405);
      expect(write.headers.get("allow")).toBe("POST");
      expect((await server.call("HEAD", "/works.delete")).status).toBe(405);
    });

    it("answers HEAD wherever GET is answered, and sends / to the reference page", async () => {
      const head = await server.call("HEAD", "/tags.list");
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toMatch(/^application\/json/);
      const docs = await fetch(`${server.url}/docs`, { method: "HEAD" });
      expect(docs.status).toBe(200);
      expect(docs.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await docs.text()).toBe("");
      const root = await fetch(`${server.url}/`, { redirect: "manual" });
      expect(root.status).toBe(302);
      expect(root.headers.get("location")).toBe("/docs");
    });

    it("answers malformed JSON with parse_error", async () => {
      const res = await server.call("POST", "/tags.list", {
        raw: '{"limit": ',
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe("parse_error");
      expect(res.body.detail).toMatch(/JSON/);
    });

    it("answers a body that is not JSON with invalid_content_type", async () => {
      const res = await server.call("POST", "/tags.list", {
        raw: "limit=5",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe("invalid_content_type");
    });

    it("accepts an empty POST body as {}", async () => {
      const res = await server.call("POST", "/tags.list");
      expect(res.status).toBe(200);
      expect(res.body.tags).toEqual(expect.any(Array));
    });

    it("answers an oversized body with 413 and max_bytes", async () => {
      const res = await server.call("POST", "/tags.list", { body: { name: ["x".repeat(5000)] } });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ type: "request_entity_too_large", max_bytes: 4096 });
    });

    it.each([
      [{ limit: 5, colour: "red" }, "invalid_field", { field_name: "colour" }],
      [
        { limit: "five" },
        "unexpected_json_type",
        { field_name: "limit", expected: "number", actual: "string" },
      ],
      [
        { mode: "sideways" },
        "invalid_enum_value",
        { field_name: "mode", value: "sideways", allowed_values: ["after", "before"] },
      ],
      [{ limit: 0 }, "value_not_permitted", { field_name: "limit" }],
    ])("rejects the body %j as %s naming the field", async (body, type, extra) => {
      const res = await server.call("POST", "/tags.list", { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type, ...extra });
      expect(res.body.detail).toEqual(expect.any(String));
    });

    it("names a missing required field", async () => {
      const res = await server.call("POST", "/code-changes.get", { body: {} });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ type: "missing_required_field", field_name: "id" });
    });

    it("rejects unknown and malformed query parameters", async () => {
      const unknown = await server.call("GET", "/tags.list?colour=red");
      expect(unknown.body).toMatchObject({ type: "invalid_field", field_name: "colour" });
      const wrong = await server.call("GET", "/tags.list?limit=lots");
      expect(wrong.body).toMatchObject({ type: "unexpected_json_type", field_name: "limit" });
    });

    it("refuses an unknown API version and accepts the known one", async () => {
      const bad = await server.call("GET", "/tags.list", { headers: { "x-vendor-version": "1999-01-01" } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ type: "invalid_api_version", value: "1999-01-01" });
      const good = await server.call("GET", "/tags.list", { headers: { "x-vendor-version": "2024-01-24" } });
      expect(good.status).toBe(200);
    });

    it("turns a failing handler into internal_error with a reference id that is in the log", async () => {
      const res = await server.call("GET", "/stages.custom.get?id=STAGE-1");
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        type: "internal_error",
        message: "Internal error.",
        detail: expect.any(String),
        reference_id: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(/secret stack|at .*\.ts/);
      expect(
        server.logs.some((line) => line.includes(res.body.reference_id) && line.includes("secret stack")),
      ).toBe(true);
    });

    it("fails loudly when an answer breaks the contract", async () => {
      const res = await server.call("POST", "/surveys.create", { body: { name: "Onboarding" } });
      expect(res.status).toBe(500);
      expect(res.body.type).toBe("internal_error");
      expect(server.app.violations.some((v) => v.startsWith("surveys-create 201"))).toBe(true);
      server.app.violations.length = 0;
    });

    it("checks an answer sent as JSON text every time it breaks the contract, once while it keeps to it", async () => {
      for (let i = 0; i < 2; i++) {
        expect((await server.call("GET", "/surveys.list?limit=1")).status).toBe(200);
        const res = await server.call("GET", "/surveys.list?limit=2");
        expect(res.status).toBe(500);
        expect(server.app.violations).toEqual([expect.stringMatching(/^surveys-list 200: /)]);
        server.app.violations.length = 0;
      }
    });

    it("echoes a request id on every answer", async () => {
      const mine = await server.call("GET", "/tags.list", { headers: { "x-request-id": "req-abc-123" } });
      expect(mine.headers.get("x-request-id")).toBe("req-abc-123");
      const generated = await server.call("GET", "/nothing");
      expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe("authentication and scopes", () => {
    it("refuses a request without a token", async () => {
      const res = await server.call("GET", "/tags.list", { token: null });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("unauthenticated");
    });

    it("refuses an unknown token", async () => {
      const res = await server.call("GET", "/tags.list", { token: "wkp_not-a-real-token" });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("unauthenticated");
    });

    it("accepts the bare token without the Bearer prefix", async () => {
      const res = await server.call("GET", "/tags.list", {
        token: null,
        headers: { authorization: server.adminToken },
      });
      expect(res.status).toBe(200);
    });

    it("refuses an expired token with token_expired", async () => {
      const token = await server.token(["tag:read"], { expiresIn: 0 });
      const res = await server.call("GET", "/tags.list", { token });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("token_expired");
    });

    it("refuses a revoked token with token_revoked", async () => {
      const token = await server.token(["tag:read"]);
      const [record] = (await server.store.listTokens(server.org.id, { subject: server.admin.id })).filter(
        (t) => t.token_hint === token.slice(-4),
      );
      await server.store.revokeToken(server.actor, record?.id as string);
      const res = await server.call("GET", "/tags.list", { token });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("token_revoked");
    });

    it("refuses a deactivated organization (plainly unauthenticated on the org-schedule operations)", async () => {
      const other = await server.otherOrg();
      await server.store.setOrgStatus(other.org.id, "deactivated");
      const res = await server.call("GET", "/tags.list", { token: other.token });
      expect(res.status).toBe(401);
      expect(res.body.type).toBe("dev_org_deactivated");
      const schedules = await server.call("POST", "/org-schedules.list", { token: other.token, body: {} });
      expect(schedules.status).toBe(401);
      expect(schedules.body.type).toBe("unauthenticated");
    });

    it("refuses a token without any of the operation's scopes", async () => {
      const token = await server.token(["article:read"]);
      const res = await server.call("GET", "/tags.list", { token });
      expect(res.status).toBe(403);
      expect(res.body.type).toBe("forbidden");
      expect(res.body.detail).toContain("tag:read");
      for (const scope of ["tag:read", "tag:write", "tag:all"]) {
        const allowed = await server.call("GET", "/tags.list", { token: await server.token([scope]) });
        expect(allowed.status, scope).toBe(200);
      }
    });

    it("needs no scope for auth-tokens.list", async () => {
      const token = await server.token([]);
      const res = await server.call("GET", "/auth-tokens.list", { token });
      expect(res.status).toBe(200);
    });
  });

  describe("tenancy", () => {
    it("never shows or finds another organization's records", async () => {
      const other = await server.otherOrg();
      const mine = await createCodeChange(server.store, server.actor, "Fix login");
      await createTag(server.store, other.actor, "other-org-tag");
      const foreign = await server.call("GET", `/code-changes.get?id=${encodeURIComponent(mine.id)}`, {
        token: other.token,
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.type).toBe("not_found");
      const byDisplayId = await server.call("POST", "/code-changes.get", {
        token: other.token,
        body: { id: mine.display_id },
      });
      expect(byDisplayId.status).toBe(404);
      const list = await server.call("GET", "/tags.list?limit=1000");
      expect(list.body.tags.map((t: { name: string }) => t.name)).not.toContain("other-org-tag");
      const theirs = await server.call("GET", "/tags.list", { token: other.token });
      expect(theirs.body.tags.map((t: { name: string }) => t.name)).toEqual(["other-org-tag"]);
    });

    it("keeps sandboxes apart: seeded copies share display ids, never records", async () => {
      const make = async () =>
        (await server.call("POST", "/sandboxes.create", { body: { seed: true } })).body.sandbox;
      const [a, b] = [await make(), await make()];
      const first = async (token: string) =>
        (await server.call("POST", "/works.export", { token, body: { first: 1 } })).body.works[0];
      const [ofA, ofB] = [await first(a.token), await first(b.token)];
      expect(ofA.display_id).toBe(ofB.display_id);
      // A display id finds the caller's own record; another sandbox's id is as if it did not exist.
      const own = await server.call("GET", `/works.get?id=${ofA.display_id}`, { token: a.token });
      expect(own.body.work.id).toBe(ofA.id);
      for (const token of [a.token, server.adminToken]) {
        const foreign = await server.call("GET", `/works.get?id=${encodeURIComponent(ofB.id)}`, { token });
        expect(foreign.status).toBe(404);
        const update = await server.call("POST", "/works.update", {
          token,
          body: { id: ofB.id, title: "x" },
        });
        expect(update.status).toBe(404);
      }
      expect((await first(b.token)).title).toBe(ofB.title);
    });
  });

  describe("first operations", () => {
    it("gets a code change by id and by display id, with both methods", async () => {
      const change = await createCodeChange(server.store, server.actor, "Add retries");
      const byGet = await server.call("GET", `/code-changes.get?id=${encodeURIComponent(change.id)}`);
      expect(byGet.status).toBe(200);
      expect(byGet.body.code_change).toMatchObject({
        id: change.id,
        display_id: change.display_id,
        title: "Add retries",
        object_version: 1,
      });
      expect(byGet.body.code_change.display_id).toMatch(/^CC-\d+$/);
      const byPost = await server.call("POST", "/code-changes.get", { body: { id: change.display_id } });
      expect(byPost.body).toEqual(byGet.body);
      const missing = await server.call("GET", "/code-changes.get?id=CC-999999");
      expect(missing.status).toBe(404);
      const token = await server.token(["code_change:read"]);
      expect(
        (await server.call("POST", "/code-changes.get", { token, body: { id: change.id } })).status,
      ).toBe(200);
      const noScope = await server.token(["tag:read"]);
      expect(
        (await server.call("POST", "/code-changes.get", { token: noScope, body: { id: change.id } })).status,
      ).toBe(403);
    });

    it("gets an article, and a content block through its parent", async () => {
      const article = await createArticle(server.store, server.actor, "Getting started");
      const block = await createArticle(server.store, server.actor, "Install", article.id);
      const res = await server.call("GET", `/articles.get?id=${article.display_id}`);
      expect(res.status).toBe(200);
      expect(res.body.article).toMatchObject({ id: article.id, title: "Getting started" });
      const viaParent = await server.call("POST", "/articles.get", {
        body: { id: block.id, parent_article_id: article.id },
      });
      expect(viaParent.body.article).toMatchObject({ id: block.id, title: "Install" });
      const wrongParent = await server.call("POST", "/articles.get", {
        body: { id: article.id, parent_article_id: block.id },
      });
      expect(wrongParent.status).toBe(404);
    });

    it("lists the caller's tokens as metadata only, with every filter", async () => {
      const user = await server.store.createDevUser(server.org, {
        email: "dev@example.com",
        full_name: "Dev One",
      });
      const secretA = await server.token(["tag:read"], {
        user,
        type: "urn:vendor:params:oauth:token-type:aat",
        clientId: "app-1",
      });
      await server.token(["tag:read"], { user, type: "urn:vendor:params:oauth:token-type:pat" });
      const own = await server.call("GET", "/auth-tokens.list", { token: secretA });
      expect(own.status).toBe(200);
      expect(own.body.tokens).toHaveLength(2);
      for (const token of own.body.tokens) {
        expect(token.subject).toBe(user.id);
        expect(JSON.stringify(token)).not.toContain(secretA);
        expect(token).not.toHaveProperty("hash");
        expect(token.status).toBe("active");
      }
      const byType = await server.call(
        "GET",
        "/auth-tokens.list?requested_token_type=urn:vendor:params:oauth:token-type:aat",
        {
          token: secretA,
        },
      );
      expect(byType.body.tokens.map((t: { client_id?: string }) => t.client_id)).toEqual(["app-1"]);
      const byClient = await server.call("POST", "/auth-tokens.list", {
        token: secretA,
        body: { client_id: "app-1" },
      });
      expect(byClient.body.tokens).toHaveLength(1);
      const bySubject = await server.call("GET", `/auth-tokens.list?subject=${encodeURIComponent(user.id)}`);
      expect(bySubject.body.tokens).toHaveLength(2);
      const adminOwn = await server.call("GET", "/auth-tokens.list");
      expect(adminOwn.body.tokens.every((t: { subject: string }) => t.subject === server.admin.id)).toBe(
        true,
      );
      const unknown = await server.call("GET", "/auth-tokens.list?subject=DEVU-99999");
      expect(unknown.status).toBe(404);
    });

    it("lists tags by exact names with comma lists, repeated keys and quoted lists", async () => {
      for (const name of ["alpha", "beta", "gamma,delta"]) await createTag(server.store, server.actor, name);
      const names = async (query: string) =>
        ((await server.call("GET", `/tags.list?${query}`)).body.tags as Array<{ name: string }>)
          .map((t) => t.name)
          .sort();
      expect(await names("name=alpha,beta")).toEqual(["alpha", "beta"]);
      expect(await names("name=alpha&name=beta")).toEqual(["alpha", "beta"]);
      expect(await names(`name=${encodeURIComponent('"gamma,delta","alpha"')}`)).toEqual([
        "alpha",
        "gamma,delta",
      ]);
      expect(await names("name[]=beta")).toEqual(["beta"]);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
