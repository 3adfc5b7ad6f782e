// accounts.create / get / list through real HTTP: required fields, defaults, unique external references
// (409), unknown ids, attached files, the custom-schema rule, the list filters and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("accounts on %s", (database) => {
  let server: TestServer;
  let owner: { id: string; display_id: string };

  beforeAll(async () => {
    server = await startTestServer(database);
    owner = await server.store.createDevUser(server.org, {
      email: "olga@example.com",
      full_name: "Olga Owner",
    });
  });
  afterAll(async () => {
    await server.close();
  });

  describe("accounts", () => {
    describe("accounts.create", () => {
      it("creates an account with every field, owned by the caller unless told", async () => {
        const res = await server.post("/accounts.create", {
          display_name: "Globex Corporation",
          description: "Makes globes.",
          domains: ["globex.example"],
          external_refs: ["crm-77", "erp-1"],
          owned_by: [owner.display_id],
          tier: "enterprise",
          websites: ["https://www.globex.example"],
        });
        expect(res.status).toBe(201);
        expect(res.body.account).toMatchObject({
          display_name: "Globex Corporation",
          description: "Makes globes.",
          domains: ["globex.example"],
          external_refs: ["crm-77", "erp-1"],
          owned_by: [{ id: owner.id, display_id: owner.display_id }],
          tier: "enterprise",
          websites: ["https://www.globex.example"],
          object_version: 1,
        });
        expect(res.body.account.display_id).toMatch(/^ACC-\d+$/);
        const plain = await server.post("/accounts.create", { display_name: "Initech" });
        expect(plain.body.account.owned_by).toEqual([expect.objectContaining({ id: server.admin.id })]);
      });

      it("refuses an external reference another account has with 409", async () => {
        await server.post("/accounts.create", { display_name: "Hooli", external_refs: ["crm-500"] });
        const again = await server.post("/accounts.create", {
          display_name: "Hooli 2",
          external_refs: ["new", "crm-500"],
        });
        expect(again.status).toBe(409);
        expect(again.body.type).toBe("conflict");
        expect(again.body.detail).toContain("crm-500");
        // Another organization's references do not count.
        const other = await server.otherOrg();
        const theirs = await server.call("POST", "/accounts.create", {
          token: other.token,
          body: { display_name: "Hooli", external_refs: ["crm-500"] },
        });
        expect(theirs.status).toBe(201);
      });

      it("refuses unknown owners, repeated references and an empty name", async () => {
        const unknown = await server.post("/accounts.create", { display_name: "X", owned_by: ["DEVU-9999"] });
        expect(unknown.status).toBe(400);
        expect(unknown.body).toMatchObject({ type: "invalid_id", field_name: "owned_by.0" });
        const repeated = await server.post("/accounts.create", {
          display_name: "X",
          external_refs: ["a", "a"],
        });
        expect(repeated.status).toBe(400);
        const empty = await server.post("/accounts.create", { display_name: "" });
        expect(empty.status).toBe(400);
        expect(empty.body.field_name).toBe("display_name");
        const missing = await server.post("/accounts.create", {});
        expect(missing.body).toMatchObject({ type: "missing_required_field", field_name: "display_name" });
      });
    });

    describe("accounts.get", () => {
      it("gets an account by id or display id, and 404s an unknown one", async () => {
        const made = (await server.post("/accounts.create", { display_name: "Umbrella" })).body.account;
        const byGet = await server.call("GET", `/accounts.get?id=${made.display_id}`);
        expect(byGet.status).toBe(200);
        expect(byGet.body.account).toEqual(made);
        const byPost = await server.post("/accounts.get", { id: made.id });
        expect(byPost.body).toEqual(byGet.body);
        const missing = await server.post("/accounts.get", { id: "ACC-99999" });
        expect(missing.status).toBe(404);
        expect(missing.body.type).toBe("not_found");
      });

      it("needs the account scopes", async () => {
        for (const scope of ["account:write", "account:all"]) {
          const res = await server.post(
            "/accounts.create",
            { display_name: `By ${scope}` },
            await server.token([scope]),
          );
          expect(res.status, scope).toBe(201);
        }
        const readOnly = await server.token(["account:read"]);
        expect((await server.post("/accounts.create", { display_name: "No" }, readOnly)).status).toBe(403);
        expect((await server.call("GET", "/accounts.list", { token: readOnly })).status).toBe(200);
        const made = (await server.post("/accounts.create", { display_name: "Scoped" })).body.account;
        expect((await server.post("/accounts.get", { id: made.id }, readOnly)).status).toBe(200);
        const none = await server.token(["rev_org:read"]);
        expect((await server.post("/accounts.get", { id: made.id }, none)).status).toBe(403);
        expect((await server.call("GET", "/accounts.list", { token: none })).status).toBe(403);
      });
    });
  });

  describe("accounts.list", () => {
    let fresh: TestServer;
    let other: { id: string };
    const names = (res: { body: { accounts: Array<{ display_name: string }> } }) =>
      res.body.accounts.map((account) => account.display_name).sort();

    beforeAll(async () => {
      fresh = await startTestServer(database);
      const user = await fresh.store.createDevUser(fresh.org, {
        email: "c@example.com",
        full_name: "Creator",
      });
      other = user;
      await fresh.call("POST", "/accounts.create", {
        body: { display_name: "Alpha", external_refs: ["r-1"] },
      });
      await fresh.call("POST", "/accounts.create", {
        token: await fresh.token(["account:write"], { user }),
        body: { display_name: "Bravo", external_refs: ["r-2", "r-3"] },
      });
    });
    afterAll(async () => {
      expect(fresh.app.violations).toEqual([]);
      await fresh.close();
    });

    it("filters by name, reference, creator and dates", async () => {
      const list = (body: unknown) => fresh.call("POST", "/accounts.list", { body });
      expect(names(await list({}))).toEqual(["Alpha", "Bravo"]);
      expect(names(await list({ display_name: ["Bravo"] }))).toEqual(["Bravo"]);
      expect(names(await list({ external_refs: ["r-3", "r-9"] }))).toEqual(["Bravo"]);
      expect(names(await list({ created_by: [other.id] }))).toEqual(["Bravo"]);
      expect(names(await fresh.call("GET", `/accounts.list?created_by=${fresh.admin.display_id}`))).toEqual([
        "Alpha",
      ]);
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      const hourAhead = new Date(Date.now() + 3_600_000).toISOString();
      expect(names(await list({ created_date: { type: "range", after: hourAgo } }))).toEqual([
        "Alpha",
        "Bravo",
      ]);
      expect(names(await list({ created_date: { type: "range", before: hourAgo } }))).toEqual([]);
      expect(
        names(await list({ modified_date: { type: "range", after: hourAgo, before: hourAhead } })),
      ).toEqual(["Alpha", "Bravo"]);
      expect(
        names(await list({ created_date: { type: "preset", preset_type: "last_n_days", days: 1 } })),
      ).toEqual(["Alpha", "Bravo"]);
      // Presets count whole UTC days including today, so records made today are in the next 3 days too;
      // a range that ends before today is not.
      expect(
        names(await list({ created_date: { type: "preset", preset_type: "next_n_days", days: 3 } })),
      ).toEqual(["Alpha", "Bravo"]);
      expect(names(await list({ created_date: { type: "range", before: hourAgo } }))).toEqual([]);
      const bad = await list({ created_date: { type: "preset", preset_type: "last_n_days" } });
      expect(bad.status).toBe(400);
    });

    it("sorts by display_name and pages", async () => {
      const page = await fresh.call("POST", "/accounts.list", {
        body: { sort_by: ["display_name:desc"], limit: 1 },
      });
      expect(page.body.accounts.map((a: { display_name: string }) => a.display_name)).toEqual(["Bravo"]);
      const next = await fresh.call("POST", "/accounts.list", {
        body: { sort_by: ["display_name:desc"], limit: 1, cursor: page.body.next_cursor },
      });
      expect(next.body.accounts.map((a: { display_name: string }) => a.display_name)).toEqual(["Alpha"]);
      expect(next.body.next_cursor).toBeUndefined();
    });
  });
});
