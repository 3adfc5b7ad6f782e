// The store's contract, run unchanged against SQLite in memory, SQLite in a data directory and PostgreSQL
// (when DATABASE_URL names one; each run works in its own random schema, dropped afterwards).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LogEvent } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropPostgresSchema, type OpenStoreOptions, openStore } from "../src/store/database.js";
import {
  type Actor,
  type Filter,
  type Org,
  type Page,
  type SortKey,
  type Store,
  type StoredRecord,
  StoreError,
  type UserRef,
} from "../src/store/types.js";

const DATABASE_URL = process.env.DATABASE_URL;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Target {
  options: OpenStoreOptions;
  /** Opening `options` again reaches the same database (false for `:memory:`). */
  reopenable: boolean;
  /** Several stores can work on the database at once from this process (PostgreSQL's pool). */
  multiConnection: boolean;
  cleanup(): Promise<void>;
}

function sqliteMemory(): Target {
  return {
    options: { dataDir: ":memory:" },
    reopenable: false,
    multiConnection: false,
    cleanup: async () => {},
  };
}

function sqliteDir(): Target {
  const dir = mkdtempSync(join(tmpdir(), "workapi-store-"));
  return {
    options: { dataDir: join(dir, "data") },
    reopenable: true,
    multiConnection: false,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function randomSchema(): string {
  return `store_test_${randomBytes(6).toString("hex")}`;
}

function postgres(databaseUrl: string): Target {
  const schema = randomSchema();
  return {
    options: { databaseUrl, postgresSchema: schema },
    reopenable: true,
    multiConnection: true,
    cleanup: () => dropPostgresSchema(databaseUrl, schema),
  };
}

describe("store on SQLite in memory", () => storeSuite(sqliteMemory));
describe("store on SQLite in a data directory", () => storeSuite(sqliteDir));
if (!DATABASE_URL) {
  console.warn("store.test.ts: DATABASE_URL is not set, so the PostgreSQL store tests are skipped");
}
describe.skipIf(!DATABASE_URL)("store on PostgreSQL", () => {
  storeSuite(() => postgres(DATABASE_URL as string));

  it("lets two processes open (and migrate) a new schema at the same time", async () => {
    const databaseUrl = DATABASE_URL as string;
    const schema = randomSchema();
    try {
      const [a, b] = await Promise.all([
        openStore({ databaseUrl, postgresSchema: schema }),
        openStore({ databaseUrl, postgresSchema: schema }),
      ]);
      const org = await a.createOrg("Shared");
      expect(await b.getOrg(org.id)).toEqual(org);
      await Promise.all([a.close(), b.close()]);
    } finally {
      await dropPostgresSchema(databaseUrl, schema);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

function storeSuite(makeTarget: () => Target): void {
  let target: Target;
  let store: Store;
  /** SQL of every statement the suite's store runs (Kysely's query log). */
  const queries: string[] = [];
  const messages: string[] = [];
  const options = (): OpenStoreOptions => ({
    ...target.options,
    logger: { info: (m) => messages.push(m), warn: (m) => messages.push(m) },
    log: (event: LogEvent) => {
      if (event.level === "query") queries.push(event.query.sql);
    },
  });

  beforeAll(async () => {
    target = makeTarget();
    store = await openStore(options());
  });

  afterAll(async () => {
    await store?.close();
    await target?.cleanup();
  });

  /** A new organization with one user, as an actor: each test works in organizations of its own. */
  async function newActor(name = "Org"): Promise<Actor & { org: Org }> {
    const org = await store.createOrg(name);
    const user = await store.createDevUser(org, { email: "ada@example.com", full_name: "Ada Lovelace" });
    return { org, orgId: org.id, orgNumber: org.number, user: userRef(user) };
  }

  function userRef(user: UserRef): UserRef {
    const { type, id, display_id, display_name, email, full_name, state } = user;
    return { type, id, display_id, display_name, email, full_name, state };
  }

  function work(actor: Actor, data: Record<string, unknown>, extra: Partial<Record<string, unknown>> = {}) {
    return store.createRecord(actor, {
      kind: "work",
      idType: "issue",
      prefix: "ISS",
      label: String(data.title ?? ""),
      data,
      ...extra,
    });
  }

  async function expectStoreError(promise: Promise<unknown>, code: StoreError["code"], field?: string) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe(code);
    if (field !== undefined) expect((error as StoreError).field).toBe(field);
  }

  it("runs the migrations on first open", () => {
    expect(messages).toContain("store: applied migration 0001_initial");
  });

  describe("organizations, dev users and tokens", () => {
    it("numbers organizations and builds their ids", async () => {
      const a = await store.createOrg("Alpha");
      const b = await store.createOrg("Beta");
      expect(b.number).toBe(a.number + 1);
      expect(a.id).toBe(`don:identity:workapi:devo/${a.number}`);
      expect(a).toMatchObject({ name: "Alpha", status: "active" });
      expect(a.created_date).toMatch(ISO_MS);
      expect(await store.getOrg(a.id)).toEqual(a);
      expect(await store.getOrg("don:identity:workapi:devo/999999")).toBeUndefined();
      const all = await store.listOrgs();
      expect(all.map((o) => o.id)).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(all.map((o) => o.number)).toEqual([...all.map((o) => o.number)].sort((x, y) => x - y));

      await store.setOrgStatus(a.id, "deactivated");
      expect((await store.getOrg(a.id))?.status).toBe("deactivated");
      await expectStoreError(store.setOrgStatus("don:identity:workapi:devo/999999", "active"), "not_found");
    });

    it("numbers dev users per organization", async () => {
      const a = await store.createOrg("A");
      const b = await store.createOrg("B");
      const a1 = await store.createDevUser(a, { email: "one@a.test", full_name: "One" });
      const a2 = await store.createDevUser(a, {
        email: "two@a.test",
        full_name: "Two",
        display_name: "deux",
      });
      const b1 = await store.createDevUser(b, { email: "one@b.test", full_name: "Uno" });
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
      expect(await store.getDevUser(a.id, a1.id)).toEqual(a1);
      expect(await store.getDevUser(a.id, "DEVU-2")).toEqual(a2);
      expect(await store.getDevUser(b.id, a1.id)).toBeUndefined();
      expect(await store.listDevUsers(a.id)).toEqual([a1, a2]);
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
      const token = await store.createToken(actor, fields);
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
      expect(await store.findTokenByHash(fields.hash)).toEqual(token);
      expect(await store.findTokenByHash("0".repeat(64))).toBeUndefined();
      expect(await store.getToken(actor.orgId, token.id)).toEqual(token);
      expect(await store.getToken(other.orgId, token.id)).toBeUndefined();

      await expectStoreError(store.createToken(actor, fields), "conflict", "hash");

      const second = await store.createToken(actor, {
        ...fields,
        hash: randomBytes(32).toString("hex"),
        client_id: "cli",
        requested_token_type: "aat",
      });
      expect(second.display_id).toBe("TOKEN-2");
      const list = (filter: { requested_token_type?: string; client_id?: string }) =>
        store
          .listTokens(actor.orgId, { subject: actor.user.id, ...filter })
          .then((ts) => ts.map((t) => t.id));
      expect(await list({})).toEqual([token.id, second.id]);
      expect(await list({ client_id: "cli" })).toEqual([second.id]);
      expect(await list({ requested_token_type: fields.requested_token_type })).toEqual([token.id]);
      expect(await store.listTokens(other.orgId, { subject: actor.user.id })).toEqual([]);

      await expectStoreError(store.revokeToken(other, token.id), "not_found");
      const revoked = await store.revokeToken(actor, token.id);
      expect(revoked).toMatchObject({ status: "revoked", object_version: 2, modified_by: actor.user.id });
      expect(await store.findTokenByHash(fields.hash)).toEqual(revoked);
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

      expect(await store.getRecord(actor.orgId, ["work"], created.id)).toEqual(created);
      expect(await store.getRecord(actor.orgId, ["work"], created.display_id)).toEqual(created);
      expect(await store.getRecord(actor.orgId, [], created.id)).toEqual(created);
      expect(await store.getRecord(actor.orgId, ["part"], created.id)).toBeUndefined();

      const updated = await store.updateRecord<Record<string, unknown>>(
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
      expect(await store.getRecord(actor.orgId, ["work"], created.id)).toEqual(updated);

      // The base fields are the store's: whatever `change` puts there is overwritten.
      const again = await store.updateRecord(actor, "work", created.display_id, (current) => ({
        data: { ...current.data, object_version: 77, id: "forged" },
        subtype: null,
      }));
      expect(again.object_version).toBe(3);
      expect(again.data).toMatchObject({ object_version: 3, id: created.id, title: "Renamed" });
      expect(again.subtype).toBeNull();
      expect(again.label).toBe("Renamed");

      await expectStoreError(
        store.updateRecord(actor, "work", "don:core:workapi:devo/1:issue/999999", (c) => ({ data: c.data })),
        "not_found",
      );
      expect(await store.deleteRecord(actor, "work", created.id)).toBe(true);
      expect(await store.deleteRecord(actor, "work", created.id)).toBe(false);
      expect(await store.getRecord(actor.orgId, ["work"], created.id)).toBeUndefined();
    });

    it("numbers ids and display ids per organization and prefix", async () => {
      const a = await newActor("A");
      const b = await newActor("B");
      const iss1 = await work(a, { title: "one" });
      const iss2 = await work(a, { title: "two" });
      const tkt1 = await store.createRecord(a, { kind: "work", idType: "ticket", prefix: "TKT", data: {} });
      const other1 = await work(b, { title: "b one" });
      expect(iss1.id).toBe(`don:core:workapi:devo/${a.orgNumber}:issue/1`);
      expect([iss1.display_id, iss2.display_id, tkt1.display_id]).toEqual(["ISS-1", "ISS-2", "TKT-1"]);
      expect(tkt1.id).toBe(`don:core:workapi:devo/${a.orgNumber}:ticket/1`);
      expect(other1.id).toBe(`don:core:workapi:devo/${b.orgNumber}:issue/1`);
      expect(other1.display_id).toBe("ISS-1");
      // The same display id in two organizations: each finds its own.
      expect((await store.getRecord(a.orgId, ["work"], "ISS-1"))?.id).toBe(iss1.id);
      expect((await store.getRecord(b.orgId, ["work"], "ISS-1"))?.id).toBe(other1.id);
    });

    it("keeps organizations apart", async () => {
      const a = await newActor("A");
      const b = await newActor("B");
      const mine = await work(a, { title: "secret" }, { external_ref: "ext-1" });
      await work(b, { title: "theirs" });
      expect(await store.getRecord(b.orgId, ["work"], mine.id)).toBeUndefined();
      expect(await store.getRecord(b.orgId, [], mine.id)).toBeUndefined();
      const page = await store.listRecords(b.orgId, "work", { limit: 100 });
      expect(page.items.map((r) => r.org_id)).toEqual([b.orgId]);
      expect(await store.countRecords(b.orgId, "work")).toBe(1);
      expect(await store.findRecords(a.orgId, "work", { limit: 10 })).toEqual([mine]);
      await expectStoreError(
        store.updateRecord(b, "work", mine.id, (c) => ({ data: c.data })),
        "not_found",
      );
      expect(await store.deleteRecord(b, "work", mine.id)).toBe(false);
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
      await store.createRecord(actor, {
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
        store.updateRecord(actor, "work", e.id, (c) => ({ data: c.data, external_ref: "ref-1" })),
        "conflict",
        "external_ref",
      );

      const tag = (a: Actor, name: string, kind = "tag") =>
        store.createRecord(a, { kind, idType: "tag", prefix: "TAG", label: name, data: { name } });
      const t = await tag(actor, "urgent");
      expect(t.display_id).toBe("TAG-1");
      await expectStoreError(tag(actor, "urgent"), "conflict", "name");
      // A failed create leaves nothing behind, not even a used number.
      expect((await tag(actor, "later")).display_id).toBe("TAG-2");
      await tag(other, "urgent");
      await tag(actor, "urgent", "not_a_tag");
    });
  });

  describe("filters", () => {
    let actor: Actor;
    /** Titles of the records matching `filter`, sorted. */
    const titles = async (filter: Filter) => {
      const found = await store.findRecords<{ title: string }>(actor.orgId, "work", { filter, limit: 100 });
      expect(await store.countRecords(actor.orgId, "work", filter)).toBe(found.length);
      return found.map((r) => r.data.title).sort();
    };

    beforeAll(async () => {
      actor = await newActor();
      const rows: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [
          {
            title: "a",
            priority: 1,
            stage: { name: "triage" },
            owned_by: [{ id: "u1" }, { id: "u2" }],
            labels: ["x", "y"],
            is_spam: false,
            custom_fields: { tnt__priority: "high" },
          },
          { subtype: "bug", external_ref: "r-a" },
        ],
        [
          {
            title: "b",
            priority: 2,
            stage: { name: "triage" },
            owned_by: [{ id: "u2" }],
            labels: ["y"],
            is_spam: true,
          },
          { subtype: "bug" },
        ],
        [
          {
            title: "c",
            priority: 9,
            stage: { name: "done" },
            owned_by: [],
            labels: [7, "z"],
            is_spam: false,
          },
          { subtype: "feature", parent_id: "P1" },
        ],
        [
          { title: "d", priority: 10, stage: { name: "done" }, owned_by: [{ id: "u3" }], custom_fields: {} },
          { subtype: "feature", parent_id: "P1" },
        ],
        // Values of other JSON types than the filters ask for: never match a typed comparison.
        [
          { title: "e", priority: "10", stage: "done", owned_by: "u1", labels: { y: 1 }, is_spam: "true" },
          {},
        ],
        [{ title: "f", priority: null, stage: null, owned_by: [{ id: 5 }, "u1"], labels: null }, {}],
      ];
      for (const [data, extra] of rows) await work(actor, data, extra);
    });

    it("compares indexed columns", async () => {
      expect(await titles({ op: "eq", path: "subtype", value: "bug" })).toEqual(["a", "b"]);
      expect(await titles({ op: "ne", path: "subtype", value: "bug" })).toEqual(["c", "d", "e", "f"]);
      expect(await titles({ op: "in", path: "subtype", values: ["feature", "other"] })).toEqual(["c", "d"]);
      expect(await titles({ op: "in", path: "subtype", values: [] })).toEqual([]);
      expect(await titles({ op: "gt", path: "label", value: "d" })).toEqual(["e", "f"]);
      expect(await titles({ op: "lte", path: "label", value: "b" })).toEqual(["a", "b"]);
      expect(await titles({ op: "eq", path: "parent_id", value: "P1" })).toEqual(["c", "d"]);
      expect(await titles({ op: "eq", path: "object_version", value: 1 })).toHaveLength(6);
      expect(await titles({ op: "gte", path: "object_version", value: 2 })).toEqual([]);
      expect(await titles({ op: "exists", path: "external_ref", exists: true })).toEqual(["a"]);
      expect(await titles({ op: "exists", path: "parent_id", exists: false })).toEqual(["a", "b", "e", "f"]);
    });

    it("compares fields inside data by their JSON type", async () => {
      expect(await titles({ op: "eq", path: "stage.name", value: "triage" })).toEqual(["a", "b"]);
      expect(await titles({ op: "eq", path: "custom_fields.tnt__priority", value: "high" })).toEqual(["a"]);
      expect(await titles({ op: "eq", path: "priority", value: 10 })).toEqual(["d"]);
      expect(await titles({ op: "eq", path: "priority", value: "10" })).toEqual(["e"]);
      // Numeric, not textual: 9 < 10.
      expect(await titles({ op: "gt", path: "priority", value: 2 })).toEqual(["c", "d"]);
      expect(await titles({ op: "gte", path: "priority", value: 2 })).toEqual(["b", "c", "d"]);
      expect(await titles({ op: "lt", path: "priority", value: 9.5 })).toEqual(["a", "b", "c"]);
      expect(await titles({ op: "lte", path: "priority", value: 1 })).toEqual(["a"]);
      expect(await titles({ op: "eq", path: "is_spam", value: true })).toEqual(["b"]);
      expect(await titles({ op: "eq", path: "is_spam", value: false })).toEqual(["a", "c"]);
      // `ne` includes the records without the field.
      expect(await titles({ op: "ne", path: "is_spam", value: false })).toEqual(["b", "d", "e", "f"]);
      expect(await titles({ op: "in", path: "priority", values: [1, 9, "10"] })).toEqual(["a", "c", "e"]);
      expect(await titles({ op: "in", path: "stage.name", values: ["done", true] })).toEqual(["c", "d"]);
    });

    it("matches array elements with any", async () => {
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: ["u2"] })).toEqual(["a", "b"]);
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: ["u1", "u3"] })).toEqual([
        "a",
        "d",
      ]);
      expect(await titles({ op: "any", path: "owned_by", key: "id", values: [5] })).toEqual(["f"]);
      expect(await titles({ op: "any", path: "owned_by", values: ["u1"] })).toEqual(["f"]);
      expect(await titles({ op: "any", path: "labels", values: ["y"] })).toEqual(["a", "b"]);
      expect(await titles({ op: "any", path: "labels", values: [7] })).toEqual(["c"]);
      expect(await titles({ op: "any", path: "labels", values: ["7"] })).toEqual([]);
      expect(await titles({ op: "any", path: "labels", values: [] })).toEqual([]);
      expect(await titles({ op: "any", path: "missing.path", values: ["x"] })).toEqual([]);
    });

    it("tests presence with exists", async () => {
      expect(await titles({ op: "exists", path: "custom_fields", exists: true })).toEqual(["a", "d"]);
      expect(await titles({ op: "exists", path: "custom_fields.tnt__priority", exists: true })).toEqual([
        "a",
      ]);
      // JSON null counts as absent.
      expect(await titles({ op: "exists", path: "priority", exists: true })).toEqual([
        "a",
        "b",
        "c",
        "d",
        "e",
      ]);
      expect(await titles({ op: "exists", path: "labels", exists: false })).toEqual(["d", "f"]);
    });

    it("combines with and, or, not", async () => {
      const triage: Filter = { op: "eq", path: "stage.name", value: "triage" };
      const feature: Filter = { op: "eq", path: "subtype", value: "feature" };
      const high: Filter = { op: "gte", path: "priority", value: 2 };
      expect(await titles({ op: "and", filters: [triage, high] })).toEqual(["b"]);
      expect(await titles({ op: "or", filters: [triage, feature] })).toEqual(["a", "b", "c", "d"]);
      expect(await titles({ op: "not", filter: triage })).toEqual(["c", "d", "e", "f"]);
      expect(await titles({ op: "not", filter: { op: "or", filters: [triage, feature] } })).toEqual([
        "e",
        "f",
      ]);
      expect(
        await titles({
          op: "and",
          filters: [
            { op: "or", filters: [triage, feature] },
            { op: "not", filter: high },
          ],
        }),
      ).toEqual(["a"]);
      expect(await titles({ op: "and", filters: [] })).toHaveLength(6);
      expect(await titles({ op: "or", filters: [] })).toEqual([]);
    });

    it("refuses paths that are not plain dotted names", async () => {
      for (const path of ["a'b", "a..b", "", "a.b)--", "$.a", "a[0]", "data->>'x'"]) {
        await expect(titles({ op: "eq", path, value: "x" })).rejects.toThrow(/Invalid field path/);
      }
      await expect(titles({ op: "any", path: "owned_by", key: "id'--", values: ["x"] })).rejects.toThrow(
        /Invalid field path/,
      );
    });

    it("treats values as data, never as SQL", async () => {
      expect(await titles({ op: "eq", path: "stage.name", value: "x' or '1'='1" })).toEqual([]);
      expect(await titles({ op: "in", path: "subtype", values: ["bug') or ('1'='1"] })).toEqual([]);
    });
  });

  describe("pagination", () => {
    const COUNT = 300;
    const LIMIT = 17;
    let actor: Actor;
    /** Creation order of each record: the order of seq, the store's tie-breaker. */
    const created = new Map<string, number>();
    const records: Array<StoredRecord<{ group?: number; bucket: string }>> = [];

    beforeAll(async () => {
      actor = await newActor();
      const other = await newActor();
      await store.transaction(async (tx) => {
        for (let i = 0; i < COUNT; i++) {
          const data = { bucket: `b${i % 3}`, ...(i % 10 === 0 ? {} : { group: i % 4 }) };
          // Distinct labels, in an order unrelated to creation.
          const label = `item-${String((i * 37) % COUNT).padStart(3, "0")}`;
          const record = await tx.createRecord(actor, {
            kind: "work",
            idType: "issue",
            prefix: "ISS",
            label,
            data,
          });
          created.set(record.id, i);
          records.push(record);
        }
        // Other families and organizations never show up.
        await tx.createRecord(actor, { kind: "part", idType: "product", prefix: "PROD", data: {} });
        await tx.createRecord(other, {
          kind: "work",
          idType: "issue",
          prefix: "ISS",
          data: { bucket: "b0" },
        });
      });
    });

    /** The expected order, computed here from the same rules the store applies. */
    function expectedOrder(
      sort: SortKey[] | undefined,
      keep: (r: (typeof records)[number]) => boolean = () => true,
    ) {
      const keys = sort ?? [{ path: "created_date", direction: "asc" }];
      const value = (r: (typeof records)[number], key: SortKey): string | number => {
        if (key.path === "label" || key.path === "created_date") return r[key.path];
        const v = (r.data as unknown as Record<string, unknown>)[key.path];
        if (key.type === "number") return typeof v === "number" ? v : -Number.MAX_VALUE;
        return typeof v === "string" ? v : "";
      };
      const last = keys[keys.length - 1]?.direction ?? "asc";
      return records
        .filter(keep)
        .sort((a, b) => {
          for (const key of keys) {
            const x = value(a, key);
            const y = value(b, key);
            if (x !== y) return (x < y ? -1 : 1) * (key.direction === "asc" ? 1 : -1);
          }
          return ((created.get(a.id) ?? 0) - (created.get(b.id) ?? 0)) * (last === "asc" ? 1 : -1);
        })
        .map((r) => r.id);
    }

    async function walk(query: { sort?: SortKey[]; filter?: Filter }, mode: "after" | "before") {
      const pages: Array<Page<object>> = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.listRecords(actor.orgId, "work", { ...query, limit: LIMIT, mode, cursor });
        pages.push(page);
        cursor = mode === "after" ? page.next_cursor : page.prev_cursor;
        if (!cursor) break;
        expect(pages.length).toBeLessThan(100);
      }
      // Backwards, the pages arrive last first: put them in list order.
      if (mode === "before") pages.reverse();
      return pages;
    }

    function checkPages(pages: Array<Page<object>>, expected: string[]) {
      const ids = pages.flatMap((p) => p.items.map((r) => r.id));
      expect(new Set(ids).size).toBe(ids.length); // no duplicates
      expect(ids).toEqual(expected); // no gaps, right order
      expect(pages).toHaveLength(Math.ceil(expected.length / LIMIT));
      pages.forEach((page, i) => {
        expect(page.items.length).toBeGreaterThan(0);
        // Cursors are there exactly when something lies that way.
        expect(page.prev_cursor === undefined).toBe(i === 0);
        expect(page.next_cursor === undefined).toBe(i === pages.length - 1);
      });
    }

    const sorts: Array<[string, SortKey[] | undefined]> = [
      ["the default order", undefined],
      ["label asc", [{ path: "label", direction: "asc" }]],
      ["created_date desc", [{ path: "created_date", direction: "desc" }]],
      ["a number with many equal and missing values", [{ path: "group", direction: "asc", type: "number" }]],
      [
        "mixed directions over equal values",
        [
          { path: "bucket", direction: "desc" },
          { path: "group", direction: "asc", type: "number" },
        ],
      ],
      ["a number descending", [{ path: "group", direction: "desc", type: "number" }]],
    ];

    for (const [name, sort] of sorts) {
      it(`walks every page forwards and backwards, sorted by ${name}`, async () => {
        const expected = expectedOrder(sort);
        expect(expected).toHaveLength(COUNT);
        checkPages(await walk({ sort }, "after"), expected);
        checkPages(await walk({ sort }, "before"), expected);
      });
    }

    it("pages through a filtered list", async () => {
      const filter: Filter = { op: "in", path: "group", values: [1, 2] };
      const sort: SortKey[] = [{ path: "label", direction: "desc" }];
      const expected = expectedOrder(sort, (r) => r.data.group === 1 || r.data.group === 2);
      checkPages(await walk({ sort, filter }, "after"), expected);
      checkPages(await walk({ sort, filter }, "before"), expected);
    });

    it("goes back to the same page with prev_cursor", async () => {
      const sort: SortKey[] = [{ path: "group", direction: "asc", type: "number" }];
      const first = await store.listRecords(actor.orgId, "work", { sort, limit: LIMIT });
      const second = await store.listRecords(actor.orgId, "work", {
        sort,
        limit: LIMIT,
        cursor: first.next_cursor,
      });
      const back = await store.listRecords(actor.orgId, "work", {
        sort,
        limit: LIMIT,
        mode: "before",
        cursor: second.prev_cursor,
      });
      expect(back.items.map((r) => r.id)).toEqual(first.items.map((r) => r.id));
      expect(back.prev_cursor).toBeUndefined();
      expect(back.next_cursor).toBeDefined();
    });

    it("finds records in sort order up to a limit", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "asc" }];
      const found = await store.findRecords(actor.orgId, "work", { sort, limit: 25 });
      expect(found.map((r) => r.id)).toEqual(expectedOrder(sort).slice(0, 25));
      expect(await store.countRecords(actor.orgId, "work")).toBe(COUNT);
    });

    it("rejects a cursor from another kind, filter or sort", async () => {
      const sort: SortKey[] = [{ path: "label", direction: "asc" }];
      const filter: Filter = { op: "and", filters: [{ op: "eq", path: "bucket", value: "b1" }] };
      const { next_cursor: cursor } = await store.listRecords(actor.orgId, "work", {
        sort,
        filter,
        limit: 5,
      });
      expect(cursor).toBeDefined();
      const list = (kind: string, query: { sort?: SortKey[]; filter?: Filter; cursor?: string }) =>
        store.listRecords(actor.orgId, kind, { limit: 5, cursor, ...query });
      await expectStoreError(
        list("work", { sort: [{ path: "label", direction: "desc" }], filter }),
        "bad_cursor",
        "cursor",
      );
      await expectStoreError(list("work", { sort }), "bad_cursor", "cursor");
      await expectStoreError(
        list("work", { sort, filter: { op: "and", filters: [{ op: "eq", path: "bucket", value: "b2" }] } }),
        "bad_cursor",
      );
      await expectStoreError(list("part", { sort, filter }), "bad_cursor");
      await expectStoreError(list("work", { sort, filter, cursor: "not a cursor" }), "bad_cursor", "cursor");
      const forged = Buffer.from(JSON.stringify({ v: [1], s: "x" })).toString("base64url");
      await expectStoreError(list("work", { sort, filter, cursor: forged }), "bad_cursor", "cursor");
      // The same filter written with its keys in another order is the same list.
      const same = (await list("work", {
        sort,
        filter: { filters: [{ value: "b1", path: "bucket", op: "eq" }], op: "and" } as Filter,
      })) as Page<object>;
      expect(same.items).toHaveLength(5);
    });

    it("reads a deep page with the same keyset query as the second, never OFFSET", async () => {
      const sort: SortKey[] = [{ path: "created_date", direction: "desc" }];
      const pageSql: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 12; i++) {
        queries.length = 0;
        const page: Page<object> = await store.listRecords(actor.orgId, "work", { sort, limit: 10, cursor });
        // The page query reads limit + 1 rows; the EXISTS query for the other direction reads one.
        expect(queries.length).toBe(i === 0 ? 1 : 2);
        pageSql.push(queries[0] ?? "");
        cursor = page.next_cursor;
      }
      for (const text of pageSql) expect(text).not.toMatch(/\boffset\b/i);
      // Page 2 and page 12 run the same statement; only the bound cursor values differ.
      expect(pageSql[11]).toBe(pageSql[1]);
    });

    it("gives an empty page a cursor back to the rows before it", async () => {
      const mine = await newActor();
      const made = [];
      for (const title of ["x", "y", "z"]) made.push(await work(mine, { title }));
      const first = await store.listRecords(mine.orgId, "work", { limit: 2 });
      expect(first.next_cursor).toBeDefined();
      const third = made[2] as StoredRecord;
      await store.deleteRecord(mine, "work", third.id);
      const empty = await store.listRecords(mine.orgId, "work", { limit: 2, cursor: first.next_cursor });
      expect(empty.items).toEqual([]);
      expect(empty.next_cursor).toBeUndefined();
      expect(empty.prev_cursor).toBeDefined();
      const back = await store.listRecords(mine.orgId, "work", {
        limit: 2,
        mode: "before",
        cursor: empty.prev_cursor,
      });
      expect(back.items.map((r) => r.id)).toEqual(made.slice(0, 2).map((r) => r.id));
      expect(back.prev_cursor).toBeUndefined();
      expect(back.next_cursor).toBeUndefined();

      const none = await store.listRecords((await newActor()).orgId, "work", { limit: 5 });
      expect(none).toEqual({ items: [] });
    });
  });

  describe("transactions", () => {
    it("rolls everything back when the function throws", async () => {
      const actor = await newActor();
      let inside: StoredRecord | undefined;
      const failed = store.transaction(async (tx) => {
        inside = await tx.createRecord(actor, { kind: "work", idType: "issue", prefix: "ISS", data: {} });
        // The transaction sees its own writes, also through a nested transaction.
        await tx.transaction(async (nested) => {
          expect(await nested.getRecord(actor.orgId, ["work"], inside?.id ?? "")).toBeDefined();
          await nested.createOrg("Doomed");
        });
        throw new Error("boom");
      });
      await expect(failed).rejects.toThrow("boom");
      expect(inside).toBeDefined();
      expect(await store.getRecord(actor.orgId, ["work"], inside?.id ?? "")).toBeUndefined();
      expect(await store.countRecords(actor.orgId, "work")).toBe(0);
      expect((await store.listOrgs()).some((o) => o.name === "Doomed")).toBe(false);
      // The number it used is free again.
      expect((await work(actor, {})).display_id).toBe("ISS-1");
    });

    it("commits when the function returns", async () => {
      const actor = await newActor();
      const ids = await store.transaction(async (tx) => {
        const a = await tx.createRecord(actor, { kind: "work", idType: "issue", prefix: "ISS", data: {} });
        const b = await tx.updateRecord(actor, "work", a.id, (c) => ({ data: { ...c.data, done: true } }));
        return [a.id, b.object_version];
      });
      const stored = await store.getRecord(actor.orgId, ["work"], String(ids[0]));
      expect(stored?.object_version).toBe(2);
      expect(stored?.data).toMatchObject({ done: true });
    });
  });

  describe("concurrency", () => {
    it("bumps object_version once per concurrent update, losing none", async () => {
      const actor = await newActor();
      const record = await work(actor, { title: "counter", n: 0 });
      const bump = (s: Store) =>
        s.updateRecord<{ n: number }>(actor, "work", record.id, (c) => ({
          data: { ...c.data, n: c.data.n + 1 },
        }));
      // A second store is a second process: only PostgreSQL lets two work at once inside one process.
      const second = target.multiConnection ? await openStore(target.options) : undefined;
      try {
        const stores = second ? [store, second] : [store];
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => bump(stores[i % stores.length] as Store)),
        );
        const versions = results.map((r) => r.object_version).sort((a, b) => a - b);
        expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
        const final = await store.getRecord<{ n: number }>(actor.orgId, ["work"], record.id);
        expect(final?.object_version).toBe(21);
        expect(final?.data.n).toBe(20);

        // Counters hand out each number once, also under concurrent creates.
        const made = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (stores[i % stores.length] as Store).createRecord(actor, {
              kind: "work",
              idType: "task",
              prefix: "TASK",
              data: {},
            }),
          ),
        );
        const numbers = made.map((r) => Number(r.display_id.slice("TASK-".length))).sort((a, b) => a - b);
        expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      } finally {
        await second?.close();
      }
    });
  });

  describe("persistence", () => {
    it("keeps the data when closed and reopened, without running the migrations again", async () => {
      if (!target.reopenable) return; // an in-memory database ends with its store
      const actor = await newActor("Durable");
      const record = await work(actor, { title: "kept" }, { external_ref: "keep-1" });
      await store.close();
      messages.length = 0;
      store = await openStore(options());
      expect(messages.filter((m) => m.includes("migration"))).toEqual([]);
      expect(await store.getOrg(actor.orgId)).toEqual(actor.org);
      expect(await store.getRecord(actor.orgId, ["work"], record.id)).toEqual(record);
      expect((await work(actor, { title: "next" })).display_id).toBe("ISS-2");
      await expectStoreError(
        work(actor, { title: "dup" }, { external_ref: "keep-1" }),
        "conflict",
        "external_ref",
      );
    });
  });
}
