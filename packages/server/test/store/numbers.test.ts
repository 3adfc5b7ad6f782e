// Display ids' numbers on PostgreSQL (src/store/numbers.ts): taken outside the transaction that uses them, so
// creates in one organization do not wait for each other's commits; taken inside it when the counter's row is
// locked by a transaction, which then goes on waiting for that lock where PostgreSQL sees it; numbers asked for
// together are taken by one statement, a locked counter failing only its own askers. PostgreSQL only
// (DATABASE_URL); SQLite has one writer, whose transactions number inside themselves.
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  NEXT_NUMBERS,
  NUMBERS_CONNECTION_OPTIONS,
  NumbersOutside,
  OUTSIDE_PER_TRANSACTION,
} from "../../src/store/numbers.js";
import { dropPostgresSchema, openStore } from "../../src/store/open.js";
import { OwnConnection } from "../../src/store/own-connection.js";
import type { Actor, Store } from "../../src/store/types.js";
import { DATABASE_URL, randomSchema, within } from "./suite.js";

if (!DATABASE_URL) console.warn("numbers: DATABASE_URL is not set; its tests are skipped");

describe.skipIf(!DATABASE_URL)("display ids' numbers on postgres", () => {
  const url = DATABASE_URL ?? "";
  const schema = randomSchema();
  const admin = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  let store: Store;
  let actor: Actor;
  const work = (on: Store, title: string) =>
    on.createRecord(actor, { kind: "work", idType: "issue", prefix: "ISS", label: title, data: { title } });
  // A promise and the function that fulfils it (Promise.withResolvers is not in Node 20).
  const signal = (): [Promise<void>, () => void] => {
    let fulfil = () => {};
    const promise = new Promise<void>((resolve) => {
      fulfil = resolve;
    });
    return [promise, fulfil];
  };

  beforeAll(async () => {
    store = await openStore({ databaseUrl: url, postgresSchema: schema });
    await admin.connect();
    const org = await store.createOrg("Numbers");
    const user = await store.createDevUser(org, { email: "ada@example.com", full_name: "Ada Lovelace" });
    actor = { orgId: org.id, orgNumber: org.number, user };
  });
  afterAll(async () => {
    await admin.end();
    await store?.close();
    await dropPostgresSchema(url, schema);
  });

  it("does not make a create wait for another transaction's commit in the same organization", async () => {
    const [held, release] = signal();
    const [first, numbered] = signal();
    const open = store.transaction(async (tx) => {
      const made = await work(tx, "held open");
      numbered();
      await held;
      return made;
    });
    await first;
    // Numbered in its own counter's row, it would wait for the open transaction's commit.
    const second = work(store, "not waiting");
    expect(await within(second, 5_000)).toBe(true);
    release();
    const [a, b] = [await open, await second];
    expect(a.display_id).not.toBe(b.display_id);
    expect([a.display_id, b.display_id].sort()).toEqual(["ISS-1", "ISS-2"]);
  });

  it("numbers inside a transaction when the counter's row is locked, and waits for it there", async () => {
    await admin.query("begin");
    await admin.query("update counters set value = value + 10 where org_id = $1 and prefix = 'ISS'", [
      actor.orgId,
    ]);
    const waiting = store.transaction(async (tx) => [await work(tx, "a"), await work(tx, "b")]);
    // It waits for the lock on its own connection, as PostgreSQL sees (and would break a circle of).
    expect(await within(waiting, 300)).toBe(false);
    const blocked = await admin.query(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
    );
    expect(blocked.rows[0].n).toBeGreaterThanOrEqual(1);
    await admin.query("commit");
    const [a, b] = await waiting;
    expect([a?.display_id, b?.display_id]).toEqual(["ISS-13", "ISS-14"]);
    // The next transaction takes its number outside again.
    expect((await work(store, "c")).display_id).toBe("ISS-15");
  });

  it("takes the numbers of a transaction that numbers many records inside it, past the first ones", async () => {
    const before = Number((await work(store, "before")).display_id.slice("ISS-".length));
    const [held, release] = signal();
    const [bulkNumbered, numbered] = signal();
    const bulk = store.transaction(async (tx) => {
      const made = [];
      for (let i = 0; i < OUTSIDE_PER_TRANSACTION + 2; i++) made.push(await work(tx, `bulk ${i}`));
      numbered();
      await held;
      return made;
    });
    await bulkNumbered;
    // The bulk transaction now holds the counter's row: a create in the organization waits for its commit.
    const after = work(store, "after");
    expect(await within(after, 300)).toBe(false);
    release();
    const made = await bulk;
    expect(made.map((record) => record.display_id)).toEqual(made.map((_, i) => `ISS-${before + 1 + i}`));
    expect((await after).display_id).toBe(`ISS-${before + made.length + 1}`);
  });

  it("gives each number once to creates made together", async () => {
    const org = await store.createOrg("Numbered at once");
    const user = await store.createDevUser(org, { email: "bo@example.com", full_name: "Bo" });
    const by = { orgId: org.id, orgNumber: org.number, user };
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const prefix = i % 3 === 0 ? "TKT" : "ISS";
        return store.createRecord(by, {
          kind: "work",
          idType: prefix,
          prefix,
          label: `${prefix} ${i}`,
          data: {},
        });
      }),
    );
    const numbers = (prefix: string) =>
      made
        .filter((record) => record.display_id.startsWith(`${prefix}-`))
        .map((record) => Number(record.display_id.slice(prefix.length + 1)))
        .sort((a, b) => a - b);
    expect(numbers("ISS")).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(numbers("TKT")).toEqual(Array.from({ length: 8 }, (_, i) => i + 1));
  });

  it("takes the numbers asked for while a statement runs in the next one, several counters at once", async () => {
    // The numbers' own connection, as the store opens it, with the parameters of each statement it runs. Asks
    // made in one turn of the event loop arrive while the first one's statement runs, whatever the machine's
    // speed: the first statement takes one number, the next all the others.
    const compiler = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }),
    });
    const statements: unknown[][] = [];
    const connection = new OwnConnection(
      pg.Client,
      { connectionString: url, options: `-c search_path=${schema} ${NUMBERS_CONNECTION_OPTIONS}` },
      "workapi_numbers_test",
      NEXT_NUMBERS.compile(compiler),
    );
    const rows = connection.rows.bind(connection);
    connection.rows = (parameters = []) => {
      statements.push([...parameters]);
      return rows(parameters);
    };
    const numbers = new NumbersOutside(connection);
    try {
      const org = await store.createOrg("Numbered together");
      const asked = ["ISS", "TKT", "ISS", "TKT", "ISS", "ISS"].map((prefix) => numbers.take(org.id, prefix));
      expect(await Promise.all(asked)).toEqual([1, 1, 2, 2, 3, 4]);
      expect(statements).toEqual([
        [[org.id], ["ISS"], [1]],
        [
          [org.id, org.id],
          ["TKT", "ISS"],
          [2, 3],
        ],
      ]);
    } finally {
      await numbers.close();
      await compiler.destroy();
    }
  });

  it("takes the other counters' numbers outside when one counter's row is locked", async () => {
    const org = await store.createOrg("One counter locked");
    const user = await store.createDevUser(org, { email: "cy@example.com", full_name: "Cy" });
    const by = { orgId: org.id, orgNumber: org.number, user };
    const make = (prefix: string) =>
      store.createRecord(by, { kind: "work", idType: prefix, prefix, label: prefix, data: {} });
    await Promise.all([make("ISS"), make("TKT")]);
    await admin.query("begin");
    await admin.query("update counters set value = value + 10 where org_id = $1 and prefix = 'ISS'", [
      org.id,
    ]);
    const locked = make("ISS");
    const free = make("TKT");
    // Asked together, the TKT number does not wait for the ISS counter's lock.
    expect(await within(free, 5_000)).toBe(true);
    expect(await within(locked, 300)).toBe(false);
    await admin.query("commit");
    expect((await free).display_id).toBe("TKT-2");
    expect((await locked).display_id).toBe("ISS-12");
  });

  it("numbers inside the transaction that holds the counter itself, without waiting for itself", async () => {
    const last = Number((await work(store, "last")).display_id.slice("ISS-".length));
    const other = await store.createOrg("Copied into");
    const copied = await store.transaction(async (tx) => {
      // As a sandbox's copy does: the new organization's counters written by this transaction.
      const from = await tx.getOrg(actor.orgId);
      if (!from) throw new Error("the first organization is gone");
      const user = await tx.sandboxes().copyOrg(from, other);
      return tx.createRecord(
        { orgId: other.id, orgNumber: other.number, user },
        { kind: "work", idType: "issue", prefix: "ISS", label: "copy", data: {} },
      );
    });
    // The copy's counter continues from the first organization's.
    expect(copied.display_id).toBe(`ISS-${last + 1}`);
  });
});
