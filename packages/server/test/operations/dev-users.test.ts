// dev-users.self / list through real HTTP: shapes, list filters, cursors and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevUser } from "../../src/store/types.js";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("dev users on %s", (database) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
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

    describe("dev-users.self", () => {
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
    });

    describe("dev-users.list", () => {
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
  });
});
