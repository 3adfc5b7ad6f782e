// The store's organizations, dev users, tokens and records, on every database.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/store/types.js";
import { describeStores, ISO_MS } from "./suite.js";

describeStores("store records", (env) => {
  const { newActor, work, expectStoreError } = env;

  it("runs the migrations on first open", () => {
    expect(env.messages).toContain("store: applied migration 0001_initial");
  });

  describe("organizations, dev users and tokens", () => {
    it("numbers organizations and builds their ids", async () => {
      const a = await env.store.createOrg("Alpha");
      const b = await env.store.createOrg("Beta");
      expect(b.number).toBe(a.number + 1);
      expect(a.id).toBe(`don:identity:workapi:devo/${a.number}`);
      expect(a).toMatchObject({ name: "Alpha", status: "active" });
      expect(a.created_date).toMatch(ISO_MS);
      expect(await env.store.getOrg(a.id)).toEqual(a);
      expect(await env.store.getOrg("don:identity:workapi:devo/999999")).toBeUndefined();
      const all = await env.store.listOrgs();
      expect(all.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(all.map((o) => o.number)).toEqual([...all.map((o) => o.number)].sort((x, y) => x - y));

      await env.store.setOrgStatus(a.id, "deactivated");
      expect((await env.store.getOrg(a.id))?.status).toBe("deactivated");
      await expectStoreError(
        env.store.setOrgStatus("don:identity:workapi:devo/999999", "active"),
        "not_found",
      );
    });

    it("numbers dev users per organization", async () => {
      const a = await env.store.createOrg("A");
      const b = await env.store.createOrg("B");
      const a1 = await env.store.createDevUser(a, { email: "one@a.test", full_name: "One" });
      const a2 = await env.store.createDevUser(a, {
        email: "two@a.test",
        full_name: "Two",
        display_name: "deux",
      });
      const b1 = await env.store.createDevUser(b, { email: "one@b.test", full_name: "Uno" });
      expect(a1).toMatchObject({
        type: "dev_user",
        id: `don:core:workapi:devo/${a.number}:devu/1`,
        display_id: "DEVU-1",
        display_name: "one",
        state: "active",
        org_id: a.id,
      });
      expect(a2.display_id).toBe("DEVU-2");
      expect(a2.display_name).toBe("deux");
      expect(b1.id).toBe(`don:core:workapi:devo/${b.number}:devu/1`);
      expect(await env.store.getDevUser(a.id, a1.id)).toEqual(a1);
      expect(await env.store.getDevUser(a.id, "DEVU-2")).toEqual(a2);
      expect(await env.store.getDevUser(b.id, a1.id)).toBeUndefined();
      expect(await env.store.listDevUsers(a.id)).toEqual([a1, a2]);
    });

    it("stores tokens by hash, lists and revokes them", async () => {
      const actor = await newActor();
      const other = await newActor();
      const fields = {
        subject: actor.user.id,
        hash: randomBytes(32).toString("hex"),
        token_hint: "abcd",
        requested_token_type: "urn:vendor:params:oauth:token-type:pat",
        scopes: ["read", "write"],
        client_id: null,
        expires_at: null,
      };
      const token = await env.store.createToken(actor, fields);
      expect(token).toMatchObject({
        ...fields,
        id: `don:core:workapi:devo/${actor.orgNumber}:token/1`,
        display_id: "TOKEN-1",
        org_id: actor.orgId,
        status: "active",
        created_by: actor.user.id,
        object_version: 1,
      });
      expect(token.issued_at).toMatch(ISO_MS);
      expect(await env.store.findTokenByHash(fields.hash)).toEqual(token);
      expect(await env.store.findTokenByHash("0".repeat(64))).toBeUndefined();
      expect(await env.store.getToken(actor.orgId, token.id)).toEqual(token);
      expect(await env.store.getToken(other.orgId, token.id)).toBeUndefined();

      await expectStoreError(env.store.createToken(actor, fields), "conflict", "hash");

      const second = await env.store.createToken(actor, {
        ...fields,
        hash: randomBytes(32).toString("hex"),
        client_id: "cli",
        requested_token_type: "aat",
      });
      // The conflict's number is given again on SQLite; PostgreSQL took it outside (src/store/numbers.ts).
      expect(second.display_id).toBe(env.store.dialect === "postgres" ? "TOKEN-3" : "TOKEN-2");
      const list = (filter: { requested_token_type?: string; client_id?: string }) =>
        env.store
          .listTokens(actor.orgId, { subject: actor.user.id, ...filter })
          .then((ts) => ts.map((t) => t.id));
      expect(await list({})).toEqual([token.id, second.id]);
      expect(await list({ client_id: "cli" })).toEqual([second.id]);
      expect(await list({ requested_token_type: fields.requested_token_type })).toEqual([token.id]);
      expect(await env.store.listTokens(other.orgId, { subject: actor.user.id })).toEqual([]);

      await expectStoreError(env.store.revokeToken(other, token.id), "not_found");
      const revoked = await env.store.revokeToken(actor, token.id);
      expect(revoked).toMatchObject({ status: "revoked", object_version: 2, modified_by: actor.user.id });
      expect(await env.store.findTokenByHash(fields.hash)).toEqual(revoked);
    });
  });

  describe("records", () => {
    it("creates, reads, updates and deletes with the base fields", async () => {
      const actor = await newActor();
      const editor = { ...actor, user: { ...actor.user, id: "don:core:workapi:devo/0:devu/99" } };
      const created = await work(actor, { title: "First", priority: 1 }, { subtype: "bug" });
      expect(created).toMatchObject({
        kind: "work",
        org_id: actor.orgId,
        subtype: "bug",
        parent_id: null,
        label: "First",
        external_ref: null,
        object_version: 1,
      });
      expect(created.data).toMatchObject({
        title: "First",
        priority: 1,
        id: created.id,
        display_id: created.display_id,
        created_by: actor.user,
        modified_by: actor.user,
        object_version: 1,
      });
      expect(created.created_date).toMatch(ISO_MS);
      expect(created.data.created_date).toBe(created.created_date);
      expect(created.data.modified_date).toBe(created.created_date);

      expect(await env.store.getRecord(actor.orgId, ["work"], created.id)).toEqual(created);
      expect(await env.store.getRecord(actor.orgId, ["work"], created.display_id)).toEqual(created);
      expect(await env.store.getRecord(actor.orgId, [], created.id)).toEqual(created);
      expect(await env.store.getRecord(actor.orgId, ["part"], created.id)).toBeUndefined();

      const updated = await env.store.updateRecord<Record<string, unknown>>(
        editor,
        "work",
        created.id,
        (current) => ({
          data: { ...current.data, title: "Renamed", priority: 2 },
          label: "Renamed",
          parent_id: "don:core:workapi:devo/1:product/1",
        }),
      );
      expect(updated).toMatchObject({
        label: "Renamed",
        subtype: "bug",
        parent_id: "don:core:workapi:devo/1:product/1",
        object_version: 2,
      });
      expect(updated.data).toMatchObject({
        title: "Renamed",
        priority: 2,
        id: created.id,
        created_by: actor.user,
        created_date: created.created_date,
        modified_by: editor.user,
        object_version: 2,
      });
      expect(updated.modified_date >= created.modified_date).toBe(true);
      expect(await env.store.getRecord(actor.orgId, ["work"], created.id)).toEqual(updated);

      // The base fields are the store's: whatever `change` puts there is overwritten.
      const again = await env.store.updateRecord(actor, "work", created.display_id, (current) => ({
        data: { ...current.data, object_version: 77, id: "forged" },
        subtype: null,
      }));
      expect(again.object_version).toBe(3);
      expect(again.data).toMatchObject({ object_version: 3, id: created.id, title: "Renamed" });
      expect(again.subtype).toBeNull();
      expect(again.label).toBe("Renamed");

      await expectStoreError(
        env.store.updateRecord(actor, "work", "don:core:workapi:devo/1:issue/999999", (c) => ({
          data: c.data,
        })),
        "not_found",
      );
      expect(await env.store.deleteRecord(actor, "work", created.id)).toBe(true);
      expect(await env.store.deleteRecord(actor, "work", created.id)).toBe(false);
      expect(await env.store.getRecord(actor.orgId, ["work"], created.id)).toBeUndefined();
    });

    it("numbers ids and display ids per organization and prefix", async () => {
      const a = await newActor("A");
      const b = await newActor("B");
      const iss1 = await work(a, { title: "one" });
      const iss2 = await work(a, { title: "two" });
      const tkt1 = await env.store.createRecord(a, {
        kind: "work",
        idType: "ticket",
        prefix: "TKT",
        data: {},
      });
      const other1 = await work(b, { title: "b one" });
      expect(iss1.id).toBe(`don:core:workapi:devo/${a.orgNumber}:issue/1`);
      expect([iss1.display_id, iss2.display_id, tkt1.display_id]).toEqual(["ISS-1", "ISS-2", "TKT-1"]);
      expect(tkt1.id).toBe(`don:core:workapi:devo/${a.orgNumber}:ticket/1`);
      expect(other1.id).toBe(`don:core:workapi:devo/${b.orgNumber}:issue/1`);
      expect(other1.display_id).toBe("ISS-1");
      // The same display id in two organizations: each finds its own.
      expect((await env.store.getRecord(a.orgId, ["work"], "ISS-1"))?.id).toBe(iss1.id);
      expect((await env.store.getRecord(b.orgId, ["work"], "ISS-1"))?.id).toBe(other1.id);
    });

    it("keeps organizations apart", async () => {
      const a = await newActor("A");
      const b = await newActor("B");
      const mine = await work(a, { title: "secret" }, { external_ref: "ext-1" });
      await work(b, { title: "theirs" });
      expect(await env.store.getRecord(b.orgId, ["work"], mine.id)).toBeUndefined();
      expect(await env.store.getRecord(b.orgId, [], mine.id)).toBeUndefined();
      const page = await env.store.listRecords(b.orgId, "work", { limit: 100 });
      expect(page.items.map((r) => r.org_id)).toEqual([b.orgId]);
      expect(await env.store.countRecords(b.orgId, "work")).toBe(1);
      expect(await env.store.findRecords(a.orgId, "work", { limit: 10 })).toEqual([mine]);
      await expectStoreError(
        env.store.updateRecord(b, "work", mine.id, (c) => ({ data: c.data })),
        "not_found",
      );
      expect(await env.store.deleteRecord(b, "work", mine.id)).toBe(false);
      // Unique values are unique per organization only.
      await work(b, { title: "same ref" }, { external_ref: "ext-1" });
    });

    it("rejects a duplicate external_ref or tag name as a conflict", async () => {
      const actor = await newActor();
      const other = await newActor();
      await work(actor, { title: "a" }, { external_ref: "ref-1" });
      await expectStoreError(
        work(actor, { title: "b" }, { external_ref: "ref-1" }),
        "conflict",
        "external_ref",
      );
      // Another family, or no external_ref at all, is fine.
      await env.store.createRecord(actor, {
        kind: "part",
        idType: "product",
        prefix: "PROD",
        external_ref: "ref-1",
        data: {},
      });
      await work(actor, { title: "c" });
      await work(actor, { title: "d" });
      const e = await work(actor, { title: "e" }, { external_ref: "ref-2" });
      await expectStoreError(
        env.store.updateRecord(actor, "work", e.id, (c) => ({ data: c.data, external_ref: "ref-1" })),
        "conflict",
        "external_ref",
      );

      const tag = (a: Actor, name: string, kind = "tag") =>
        env.store.createRecord(a, { kind, idType: "tag", prefix: "TAG", label: name, data: { name } });
      const t = await tag(actor, "urgent");
      expect(t.display_id).toBe("TAG-1");
      await expectStoreError(tag(actor, "urgent"), "conflict", "name");
      // A failed create leaves nothing behind; on SQLite not even a used number, while PostgreSQL took the
      // number outside the transaction (src/store/numbers.ts), where it stays used.
      expect((await tag(actor, "later")).display_id).toBe(
        env.store.dialect === "postgres" ? "TAG-3" : "TAG-2",
      );
      await tag(other, "urgent");
      await tag(actor, "urgent", "not_a_tag");
    });
  });
});
