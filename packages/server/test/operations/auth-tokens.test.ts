// auth-tokens.create / list / delete through real HTTP: the token scope-subset rule, ownership and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("auth tokens on %s", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("auth tokens", () => {
    describe("auth-tokens.create", () => {
      it("issues a token with a subset of the caller's scopes, shown once", async () => {
        const caller = await server.token(["tag:read", "tag:write", "article:read"]);
        const res = await server.post(
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
        expect((await server.post("/tags.create", { name: "nope" }, secret)).status).toBe(403);
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
        const res = await server.post("/auth-tokens.create", { scope: "tag:read tag:write" }, caller);
        expect(res.status).toBe(403);
        expect(res.body.type).toBe("forbidden");
        expect(res.body.detail).toContain("tag:write");
      });

      it("gives a token like the caller's own for an empty body", async () => {
        const caller = await server.token(["tag:read", "survey:read"], {
          type: "urn:vendor:params:oauth:token-type:aat",
        });
        const res = await server.post("/auth-tokens.create", {}, caller);
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ scope: "survey:read tag:read", expires_in: 30 * 24 * 60 * 60 });
        const listed = await server.call("GET", "/auth-tokens.list", { token: res.body.access_token });
        const meta = listed.body.tokens.find((t: { token_hint: string }) =>
          res.body.access_token.endsWith(t.token_hint),
        );
        expect(meta.requested_token_type).toBe("urn:vendor:params:oauth:token-type:aat");
      });

      it("validates the request", async () => {
        expect((await server.post("/auth-tokens.create", { expires_in: 0 })).status).toBe(400);
        const forever = await server.post("/auth-tokens.create", { expires_in: 1e15 });
        expect(forever.body).toMatchObject({ type: "value_not_permitted", field_name: "expires_in" });
        expect((await server.post("/auth-tokens.create", { scope: "a  b" })).status).toBe(400);
        const type = await server.post("/auth-tokens.create", { requested_token_type: "urn:nothing" });
        expect(type.status).toBe(400);
      });
    });

    describe("auth-tokens.delete", () => {
      it("revokes the caller's own token, refuses another user's and 404s an unknown one", async () => {
        const made = await server.post("/auth-tokens.create", { scope: "tag:read" });
        const secret = made.body.access_token;
        const own = (await server.call("GET", "/auth-tokens.list")).body.tokens.find(
          (t: { token_hint: string }) => secret.endsWith(t.token_hint),
        );
        const someone = await server.store.createDevUser(server.org, {
          email: "s@example.com",
          full_name: "S",
        });
        const theirs = await server.token(["tag:read"], { user: someone });
        const denied = await server.post("/auth-tokens.delete", { token_id: own.id }, theirs);
        expect(denied.status).toBe(403);
        expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [own.id] });
        expect((await server.call("GET", "/tags.list", { token: secret })).status).toBe(200);

        const res = await server.post("/auth-tokens.delete", { token_id: own.display_id });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({});
        const after = await server.call("GET", "/tags.list", { token: secret });
        expect(after.status).toBe(401);
        expect(after.body.type).toBe("token_revoked");

        const unknown = await server.post("/auth-tokens.delete", { token_id: "TOKEN-99999" });
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
        expect((await server.post("/auth-tokens.delete", { token_id: selfId }, self)).status).toBe(200);
        expect((await server.call("GET", "/dev-users.self", { token: self })).status).toBe(401);
      });
    });
  });

  describe("auth-tokens.list", () => {
    it("lists the caller's tokens without their secrets, and none of another user's", async () => {
      const made = (await server.post("/auth-tokens.create", { scope: "tag:read" })).body;
      const listed = await server.call("GET", "/auth-tokens.list");
      expect(listed.status).toBe(200);
      const mine = listed.body.tokens.find((t: { token_hint: string }) =>
        made.access_token.endsWith(t.token_hint),
      );
      expect(mine).toMatchObject({ scopes: ["tag:read"] });
      expect(JSON.stringify(listed.body)).not.toContain(made.access_token);
      const someone = await server.store.createDevUser(server.org, {
        email: "l@example.com",
        full_name: "L",
      });
      const theirs = await server.token(["tag:read"], { user: someone });
      const theirList = await server.call("GET", "/auth-tokens.list", { token: theirs });
      expect(theirList.body.tokens.map((t: { id: string }) => t.id)).not.toContain(mine.id);
    });
  });
});
