// rev-orgs.create / get / list / update through real HTTP: required fields, defaults, unique external
// references (409), unknown ids, the custom-schema rule, an account's default Rev organization, partial updates
// with custom_fields merged, the list filters (accounts, names, references, creators, date ranges and presets)
// and scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevUser } from "../../src/store/types.js";
import { databases, startTestServer, type TestServer } from "../harness.js";

describe.each(databases)("Rev organizations on %s", (database) => {
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

  describe("rev-orgs", () => {
    let account: { id: string; display_id: string; display_name: string };
    let tag: { id: string };

    beforeAll(async () => {
      account = (await server.post("/accounts.create", { display_name: "Acme" })).body.account;
      tag = (await server.post("/tags.create", { name: "region", allowed_values: ["emea", "apac"] })).body
        .tag;
    });

    describe("rev-orgs.create", () => {
      it("creates a Rev organization with every field", async () => {
        const file = (await server.post("/artifacts.prepare", { file_name: "contract.pdf" })).body.id;
        const res = await server.post("/rev-orgs.create", {
          account: account.display_id,
          display_name: "Acme Europe",
          artifacts: [file],
          custom_fields: { tnt__segment: "mid-market" },
          custom_schema_fragments: ["tenant_fragment:rev_org"],
          description: "The European arm.",
          domain: "acme.example.org",
          environment: "staging",
          external_ref: "crm-1042",
          shared_with: [owner.id],
          tags: [{ id: tag.id, value: "emea" }],
          tier: "enterprise",
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const revOrg = res.body.rev_org;
        expect(revOrg).toMatchObject({
          display_name: "Acme Europe",
          account: { id: account.id, display_id: account.display_id, display_name: "Acme" },
          artifacts: [{ id: file }],
          custom_fields: { tnt__segment: "mid-market" },
          custom_schema_fragments: ["tenant_fragment:rev_org"],
          description: "The European arm.",
          domain: "acme.example.org",
          environment: "staging",
          external_ref: "crm-1042",
          shared_with: [{ id: owner.id }],
          tags: [{ tag: { id: tag.id, name: "region" }, value: "emea" }],
          tier: "enterprise",
        });
        expect(revOrg.display_id).toMatch(/^REV-\d+$/);
        // The account's first Rev organization is its own main one.
        expect(revOrg.primary_rev_org).toEqual({
          type: "rev_org",
          id: revOrg.id,
          display_id: revOrg.display_id,
          display_name: "Acme Europe",
        });
        // The next one of the same account points at it.
        const second = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Acme Asia",
        });
        expect(second.body.rev_org.primary_rev_org).toEqual(revOrg.primary_rev_org);
        // The file now belongs to the organization.
        const files = await server.post("/artifacts.list", { parent_id: revOrg.id });
        expect(files.body.artifacts.map((a: { id: string }) => a.id)).toEqual([file]);
      });

      it("defaults the environment to production", async () => {
        const res = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Acme Default",
        });
        expect(res.status).toBe(201);
        expect(res.body.rev_org).toMatchObject({ environment: "production", artifacts: [], tags: [] });
        const wrong = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Acme Moon",
          environment: "moon",
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body).toMatchObject({ type: "invalid_enum_value", field_name: "environment" });
      });

      it("refuses an external_ref another Rev organization has with 409", async () => {
        const first = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "One",
          external_ref: "dup-1",
        });
        expect(first.status).toBe(201);
        const second = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Two",
          external_ref: "dup-1",
        });
        expect(second.status).toBe(409);
        expect(second.body.type).toBe("conflict");
        const listed = await server.post("/rev-orgs.list", { display_name: ["Two"] });
        expect(listed.body.rev_orgs).toEqual([]);
      });

      it("needs account and display_name, and known ids", async () => {
        const noAccount = await server.post("/rev-orgs.create", { display_name: "Lonely" });
        expect(noAccount.body).toMatchObject({ type: "missing_required_field", field_name: "account" });
        const noName = await server.post("/rev-orgs.create", { account: account.id });
        expect(noName.body).toMatchObject({ type: "missing_required_field", field_name: "display_name" });
        const unknown = await server.post("/rev-orgs.create", {
          account: "ACC-99999",
          display_name: "Ghost",
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body).toMatchObject({ type: "invalid_id", field_name: "account" });
        const notAccount = await server.post("/rev-orgs.create", { account: tag.id, display_name: "Tagged" });
        expect(notAccount.body).toMatchObject({ type: "invalid_id", field_name: "account" });
        const shared = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Shared",
          shared_with: ["DEVU-9999"],
        });
        expect(shared.body).toMatchObject({ type: "invalid_id", field_name: "shared_with.0" });
        const file = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Filed",
          artifacts: ["ARTIFACT-9999"],
        });
        expect(file.body).toMatchObject({ type: "invalid_id", field_name: "artifacts.0" });
        const value = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Valued",
          tags: [{ id: tag.id, value: "mars" }],
        });
        expect(value.body).toMatchObject({ type: "value_not_permitted", field_name: "tags.0.value" });
      });

      it("refuses a file attached elsewhere", async () => {
        const file = (await server.post("/artifacts.prepare", { file_name: "a.txt" })).body.id;
        const first = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "F1",
          artifacts: [file],
        });
        const second = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "F2",
          artifacts: [file],
        });
        expect(second.status).toBe(400);
        expect(second.body).toMatchObject({
          type: "artifact_already_attached_to_a_parent",
          existing_parent: first.body.rev_org.id,
          is_same: false,
        });
      });

      it("refuses custom fields whose schema fragment is not named", async () => {
        const none = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Custom",
          custom_fields: { tnt__segment: "smb" },
        });
        expect(none.status).toBe(400);
        expect(none.body).toMatchObject({
          type: "customization_validation_error",
          field_name: "custom_fields.tnt__segment",
        });
        const subtype = await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Custom subtype",
          custom_fields: { ctype__plan: "gold" },
          custom_schema_fragments: ["custom_type_fragment:rev_org:partner"],
        });
        expect(subtype.status).toBe(201);
        expect(subtype.body.rev_org).toMatchObject({
          subtype: "partner",
          custom_fields: { ctype__plan: "gold" },
        });
      });
    });

    describe("rev-orgs.get", () => {
      it("gets a Rev organization, and 404s an unknown one", async () => {
        const made = (
          await server.post("/rev-orgs.create", { account: account.id, display_name: "Gettable" })
        ).body.rev_org;
        const byGet = await server.call("GET", `/rev-orgs.get?id=${encodeURIComponent(made.id)}`);
        expect(byGet.status).toBe(200);
        expect(byGet.body.rev_org).toEqual(made);
        expect((await server.post("/rev-orgs.get", { id: made.display_id })).body).toEqual(byGet.body);
        const missing = await server.post("/rev-orgs.get", { id: "REV-99999" });
        expect(missing.status).toBe(404);
      });

      it("gets an account's default Rev organization: the first one created under it", async () => {
        const other = (await server.post("/accounts.create", { display_name: "Initech" })).body.account;
        const first = (
          await server.post("/rev-orgs.create", { account: other.id, display_name: "Initech HQ" })
        ).body.rev_org;
        await server.post("/rev-orgs.create", { account: other.id, display_name: "Initech Labs" });
        const byAccount = await server.call("GET", `/rev-orgs.get?account=${encodeURIComponent(other.id)}`);
        expect(byAccount.status, JSON.stringify(byAccount.body)).toBe(200);
        expect(byAccount.body.rev_org).toEqual(first);
        expect((await server.post("/rev-orgs.get", { account: other.display_id })).body.rev_org).toEqual(
          first,
        );
        // id wins when both are sent.
        const labs = (
          await server.post("/rev-orgs.list", { account: [other.id], display_name: ["Initech Labs"] })
        ).body.rev_orgs[0];
        expect((await server.post("/rev-orgs.get", { id: labs.id, account: other.id })).body.rev_org.id).toBe(
          labs.id,
        );

        const empty = (await server.post("/accounts.create", { display_name: "Hooli" })).body.account;
        const none = await server.post("/rev-orgs.get", { account: empty.id });
        expect(none.status).toBe(404);
        expect(none.body.type).toBe("not_found");
        expect((await server.post("/rev-orgs.get", { account: "ACC-99999" })).status).toBe(404);
        const neither = await server.post("/rev-orgs.get", {});
        expect(neither.status).toBe(400);
        expect(neither.body).toMatchObject({ type: "missing_required_field", field_name: "id" });
      });
    });

    describe("rev-orgs.update", () => {
      it("updates only the fields sent, merges custom_fields and keeps the rest", async () => {
        const made = (
          await server.post("/rev-orgs.create", {
            account: account.id,
            display_name: "Acme Nordics",
            domain: "nordics.example.org",
            tier: "growth",
            custom_fields: { tnt__segment: "smb", tnt__seats: 5 },
            custom_schema_fragments: ["tenant_fragment:rev_org"],
          })
        ).body.rev_org;
        const res = await server.post("/rev-orgs.update", {
          id: made.display_id,
          description: "Sweden, Norway and Finland.",
          custom_fields: { tnt__seats: 8 },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.rev_org).toMatchObject({
          id: made.id,
          display_name: "Acme Nordics",
          domain: "nordics.example.org",
          description: "Sweden, Norway and Finland.",
          custom_fields: { tnt__segment: "smb", tnt__seats: 8 },
          custom_schema_fragments: ["tenant_fragment:rev_org"],
          account: made.account,
          primary_rev_org: made.primary_rev_org,
        });
        expect(res.body.rev_org.modified_date >= made.modified_date).toBe(true);
        expect((await server.post("/rev-orgs.get", { id: made.id })).body.rev_org).toEqual(res.body.rev_org);
        const renamed = await server.post("/rev-orgs.update", { id: made.id, display_name: "Acme North" });
        expect(
          (await server.post("/rev-orgs.list", { display_name: ["Acme North"] })).body.rev_orgs.map(
            (r: { id: string }) => r.id,
          ),
        ).toEqual([made.id]);
        expect(renamed.body.rev_org.description).toBe("Sweden, Norway and Finland.");
      });

      it("refuses a taken external_ref (409), an unknown id (404), bad fields and custom fields without a fragment", async () => {
        const a = (
          await server.post("/rev-orgs.create", {
            account: account.id,
            display_name: "Ref A",
            external_ref: "ref-a",
          })
        ).body.rev_org;
        const b = (await server.post("/rev-orgs.create", { account: account.id, display_name: "Ref B" })).body
          .rev_org;
        const taken = await server.post("/rev-orgs.update", { id: b.id, external_ref: "ref-a" });
        expect(taken.status).toBe(409);
        expect(taken.body.type).toBe("conflict");
        expect((await server.post("/rev-orgs.get", { id: b.id })).body.rev_org).toEqual(b);
        const own = await server.post("/rev-orgs.update", { id: a.id, external_ref: "ref-a" });
        expect(own.status).toBe(200);
        const moved = await server.post("/rev-orgs.update", { id: a.id, external_ref: "ref-a2" });
        expect(moved.body.rev_org.external_ref).toBe("ref-a2");
        expect((await server.post("/rev-orgs.update", { id: b.id, external_ref: "ref-a" })).status).toBe(200);
        expect(
          (await server.post("/rev-orgs.list", { external_ref: ["ref-a"] })).body.rev_orgs.map(
            (r: { id: string }) => r.id,
          ),
        ).toEqual([b.id]);

        const missing = await server.post("/rev-orgs.update", { id: "REV-99999", tier: "gold" });
        expect(missing.status).toBe(404);
        expect((await server.post("/rev-orgs.update", { tier: "gold" })).body).toMatchObject({
          type: "missing_required_field",
          field_name: "id",
        });
        expect((await server.post("/rev-orgs.update", { id: a.id, display_name: "" })).status).toBe(400);
        expect((await server.post("/rev-orgs.update", { id: a.id, account: account.id })).body).toMatchObject(
          {
            type: "invalid_field",
            field_name: "account",
          },
        );
        const custom = await server.post("/rev-orgs.update", {
          id: b.id,
          custom_fields: { tnt__segment: "x" },
        });
        expect(custom.status).toBe(400);
        expect(custom.body).toMatchObject({ type: "customization_validation_error" });
        const withFragment = await server.post("/rev-orgs.update", {
          id: b.id,
          custom_fields: { tnt__segment: "x" },
          custom_schema_fragments: ["tenant_fragment:rev_org"],
        });
        expect(withFragment.status, JSON.stringify(withFragment.body)).toBe(200);
        expect(withFragment.body.rev_org.custom_schema_fragments).toEqual(["tenant_fragment:rev_org"]);
      });
    });

    it("needs the rev_org scopes", async () => {
      for (const scope of ["rev_org:write", "rev_org:all"]) {
        const token = await server.token([scope]);
        const res = await server.post(
          "/rev-orgs.create",
          { account: account.id, display_name: scope },
          token,
        );
        expect(res.status, scope).toBe(201);
      }
      const readOnly = await server.token(["rev_org:read"]);
      const denied = await server.post(
        "/rev-orgs.create",
        { account: account.id, display_name: "No" },
        readOnly,
      );
      expect(denied.status).toBe(403);
      expect((await server.post("/rev-orgs.list", {}, readOnly)).status).toBe(200);
      const made = (await server.post("/rev-orgs.create", { account: account.id, display_name: "Scoped" }))
        .body.rev_org;
      expect((await server.post("/rev-orgs.get", { id: made.id }, readOnly)).status).toBe(200);
      expect((await server.post("/rev-orgs.update", { id: made.id, tier: "x" }, readOnly)).status).toBe(403);
      for (const scope of ["rev_org:write", "rev_org:all"]) {
        const token = await server.token([scope]);
        expect(
          (await server.post("/rev-orgs.update", { id: made.id, tier: scope }, token)).status,
          scope,
        ).toBe(200);
      }
      const none = await server.token(["account:read"]);
      expect((await server.post("/rev-orgs.get", { id: made.id }, none)).status).toBe(403);
      expect((await server.post("/rev-orgs.list", {}, none)).status).toBe(403);
    });
  });

  describe("rev-orgs.list", () => {
    let fresh: TestServer;
    let creator: DevUser;
    const names = (res: { body: { rev_orgs: Array<{ display_name: string }> } }) =>
      res.body.rev_orgs.map((revOrg) => revOrg.display_name).sort();

    beforeAll(async () => {
      fresh = await startTestServer(database);
      creator = await fresh.store.createDevUser(fresh.org, { email: "c@example.com", full_name: "Creator" });
      const account = (await fresh.call("POST", "/accounts.create", { body: { display_name: "A" } })).body
        .account;
      await fresh.call("POST", "/rev-orgs.create", {
        body: { account: account.id, display_name: "North", external_ref: "n-1" },
      });
      await fresh.call("POST", "/rev-orgs.create", {
        token: await fresh.token(["rev_org:write"], { user: creator }),
        body: { account: account.id, display_name: "South", external_ref: "s-1" },
      });
    });
    afterAll(async () => {
      expect(fresh.app.violations).toEqual([]);
      await fresh.close();
    });

    it("filters by name, external_ref, creator and dates", async () => {
      const list = (body: unknown) => fresh.call("POST", "/rev-orgs.list", { body });
      expect(names(await list({}))).toEqual(["North", "South"]);
      expect(names(await list({ display_name: ["North", "West"] }))).toEqual(["North"]);
      expect(names(await list({ external_ref: ["s-1"] }))).toEqual(["South"]);
      expect(names(await list({ created_by: [creator.id] }))).toEqual(["South"]);
      expect(names(await fresh.call("GET", "/rev-orgs.list?external_ref=n-1,s-1"))).toEqual([
        "North",
        "South",
      ]);
      const later = new Date(Date.now() + 60_000).toISOString();
      expect(names(await list({ created_date: { type: "range", after: later } }))).toEqual([]);
      expect(names(await list({ modified_date: { type: "range", before: later } }))).toEqual([
        "North",
        "South",
      ]);
      expect(
        names(await list({ modified_date: { type: "preset", preset_type: "last_n_days", days: 7 } })),
      ).toEqual(["North", "South"]);
    });

    it("sorts by display_name", async () => {
      const res = await fresh.call("GET", "/rev-orgs.list?sort_by=display_name:desc");
      expect(res.body.rev_orgs.map((r: { display_name: string }) => r.display_name)).toEqual([
        "South",
        "North",
      ]);
    });

    it("filters by account, and a renamed organization lists under its new name", async () => {
      const list = (body: unknown) => fresh.call("POST", "/rev-orgs.list", { body });
      const other = (await fresh.call("POST", "/accounts.create", { body: { display_name: "B" } })).body
        .account;
      await fresh.call("POST", "/rev-orgs.create", { body: { account: other.id, display_name: "East" } });
      expect(names(await list({ account: [other.id] }))).toEqual(["East"]);
      expect(names(await fresh.call("GET", `/rev-orgs.list?account=${other.id},ACC-99999`))).toEqual([
        "East",
      ]);
      const all = names(await list({}));
      expect(all).toEqual(["East", "North", "South"]);
      await fresh.call("POST", "/rev-orgs.update", {
        body: { id: (await list({ display_name: ["East"] })).body.rev_orgs[0].id, display_name: "Far East" },
      });
      expect(names(await list({ display_name: ["Far East"] }))).toEqual(["Far East"]);
      expect(names(await list({ display_name: ["East"] }))).toEqual([]);
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
