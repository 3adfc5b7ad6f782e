// The change counts on PostgreSQL (src/store/postgres-changes.ts), each spread over COUNT_SLOTS rows since
// migration 0013: a transaction moves the row of its own slot, so the writes of one family no longer commit
// one at a time behind a single row's lock, and a count is the sum of its rows. PostgreSQL only
// (DATABASE_URL); SQLite has one writer and a row per count.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropPostgresSchema, openStore } from "../../src/store/open.js";
import { COUNT_SLOTS } from "../../src/store/postgres-changes.js";
import type { Actor, Store } from "../../src/store/types.js";
import { DATABASE_URL, randomSchema, within } from "./suite.js";

if (!DATABASE_URL) console.warn("postgres-changes: DATABASE_URL is not set; its tests are skipped");

describe.skipIf(!DATABASE_URL)("change counts spread over slots on postgres", () => {
  const url = DATABASE_URL ?? "";
  const schema = randomSchema();
  const admin = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  let store: Store;
  let actor: Actor;
  const work = (title: string) =>
    store.createRecord(actor, {
      kind: "work",
      idType: "issue",
      prefix: "ISS",
      label: title,
      data: { title },
    });
  const count = async (kind: string) =>
    Number(
      (
        await admin.query("select coalesce(sum(n), 0)::int as n from kept_record_changes where kind = $1", [
          kind,
        ])
      ).rows[0].n,
    );

  beforeAll(async () => {
    store = await openStore({ databaseUrl: url, postgresSchema: schema });
    await admin.connect();
    const org = await store.createOrg("Slots");
    const user = await store.createDevUser(org, { email: "ada@example.com", full_name: "Ada Lovelace" });
    actor = { orgId: org.id, orgNumber: org.number, user };
    await work("first");
  });
  afterAll(async () => {
    await admin.end();
    await store?.close();
    await dropPostgresSchema(url, schema);
  });

  it("moves a family's count by one for each committed transaction, on the rows of their slots", async () => {
    const before = await count("work");
    await Promise.all(Array.from({ length: 20 }, (_, i) => work(`together ${i}`)));
    expect(await count("work")).toBe(before + 20);
    const slots = await admin.query("select slot from kept_record_changes where kind = 'work'");
    expect(slots.rows.length).toBeGreaterThan(1);
    for (const { slot } of slots.rows) expect(slot).toBeGreaterThanOrEqual(0);
    for (const { slot } of slots.rows) expect(slot).toBeLessThan(COUNT_SLOTS);
    // A transaction rolled back moves nothing.
    await expect(
      store.transaction(async (tx) => {
        await tx.createRecord(actor, {
          kind: "work",
          idType: "issue",
          prefix: "ISS",
          label: "gone",
          data: {},
        });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await count("work")).toBe(before + 20);
  });

  it("holds up only the writes of a slot whose row another transaction holds", async () => {
    const before = await count("work");
    // Another transaction holds the row of one slot until it commits.
    await admin.query("begin");
    await admin.query(
      `insert into kept_record_changes (kind, slot, n) values ('work', 3, 0)
        on conflict (kind, slot) do update set n = kept_record_changes.n`,
    );
    // Six transactions begun together have transaction ids close together (the numbers' own commits take
    // some between them): their slots spread, few of them the held one. With a single row per count, every
    // one of them would wait.
    const creates = Array.from({ length: 6 }, (_, i) => work(`beside ${i}`));
    const done = await Promise.all(creates.map((create) => within(create, 5_000)));
    expect(done.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    await admin.query("commit");
    await Promise.all(creates);
    expect(await count("work")).toBe(before + 6);
  });

  it("reads every count as the sum of its rows", async () => {
    const counts = await store.changes?.now();
    expect(counts?.family("work")).toBe(await count("work"));
    const credentials = await admin.query("select sum(n)::int as n from credential_changes");
    expect(counts?.credentials).toBe(credentials.rows[0].n);
  });
});
