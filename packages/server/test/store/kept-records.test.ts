// Records of a family that changes seldom (stage diagrams), read by subtype: always as the database is now,
// for the caller's transaction. A SQLite store keeps what it read while the family is unchanged;
// a change by this store, another process's or the caller's own transaction makes the next read read again,
// and nothing a transaction may still roll back is ever kept.
import { expect, it } from "vitest";
import { openStore } from "../../src/store/open.js";
import type { Actor, StoredRecord } from "../../src/store/types.js";
import { describeStores } from "./suite.js";

interface Diagram {
  name: string;
}

describeStores("kept records", (env) => {
  const diagram = (actor: Actor, name: string, subtype = "issue") =>
    env.store.createRecord<Diagram>(actor, {
      kind: "stage_diagram",
      idType: "stage_diagram",
      prefix: "SD",
      subtype,
      label: name,
      data: { name },
    });
  const names = (records: ReadonlyArray<StoredRecord<Diagram>>) => records.map((record) => record.data.name);
  const rename = (actor: Actor, id: string, name: string, store = env.store) =>
    store.updateRecord<Diagram>(actor, "stage_diagram", id, ({ data }) => ({ data: { ...data, name } }));
  const read = (actor: Actor, subtype = "issue", store = env.store) =>
    store.findBySubtype<Diagram>(actor.orgId, "stage_diagram", subtype);
  const diagramReads = () => env.queries.filter((query) => query.includes('"records"."subtype" =')).length;
  /**
   * Whether this target keeps records read outside a transaction's request counts (SQLite, on a file or in
   * memory); PostgreSQL reads every time.
   */
  const keeps = () => !env.target.multiConnection;

  it("finds what findRecords finds, and sees every change made by this store on the next read", async () => {
    const actor = await env.newActor();
    const first = await diagram(actor, "first");
    await diagram(actor, "other type", "ticket");
    const second = await diagram(actor, "second");
    const found = await env.store.findRecords<Diagram>(actor.orgId, "stage_diagram", {
      filter: { op: "eq", path: "subtype", value: "issue" },
      limit: 1000,
    });
    expect(await read(actor)).toEqual(found);
    expect(names(await read(actor))).toEqual(["first", "second"]);
    await rename(actor, first.id, "first, renamed");
    expect(names(await read(actor))).toEqual(["first, renamed", "second"]);
    await env.store.deleteRecord(actor, "stage_diagram", second.id);
    expect(names(await read(actor))).toEqual(["first, renamed"]);
    await diagram(actor, "third");
    expect(names(await read(actor))).toEqual(["first, renamed", "third"]);
    expect(names(await read(actor, "ticket"))).toEqual(["other type"]);
  });

  it("sees a change made by another store on the next read", async () => {
    if (!env.target.reopenable) return; // an in-memory database has no second store
    const actor = await env.newActor();
    const record = await diagram(actor, "before");
    expect(names(await read(actor))).toEqual(["before"]);
    expect(names(await read(actor))).toEqual(["before"]);
    // As another server process on the same database would.
    const other = await openStore(env.target.options);
    try {
      await rename(actor, record.id, "after", other);
      expect(names(await read(actor))).toEqual(["after"]);
      await other.deleteRecord(actor, "stage_diagram", record.id);
      expect(await read(actor)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("reads a transaction's own changes in it, and keeps none of those it rolls back", async () => {
    const actor = await env.newActor();
    const record = await diagram(actor, "committed");
    expect(names(await read(actor))).toEqual(["committed"]);
    await expect(
      env.store.transaction(async (tx) => {
        await rename(actor, record.id, "rolled back", tx);
        expect(names(await read(actor, "issue", tx))).toEqual(["rolled back"]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    // The next committed change moves the family's count to what it was inside the rolled-back transaction:
    // what that transaction read must not be what is read now.
    await rename(actor, record.id, "committed again");
    expect(names(await read(actor))).toEqual(["committed again"]);
    await env.store.transaction(async (tx) => {
      expect(names(await read(actor, "issue", tx))).toEqual(["committed again"]);
      await rename(actor, record.id, "in a transaction", tx);
      expect(names(await read(actor, "issue", tx))).toEqual(["in a transaction"]);
    });
    expect(names(await read(actor))).toEqual(["in a transaction"]);
  });

  it("keeps nothing a read outside a transaction counted while that transaction was open", async () => {
    const actor = await env.newActor();
    const record = await diagram(actor, "committed");
    expect(names(await read(actor))).toEqual(["committed"]);
    let outside: Promise<ReadonlyArray<StoredRecord<Diagram>>> | undefined;
    await expect(
      env.store.transaction(async (tx) => {
        await rename(actor, record.id, "rolled back", tx);
        // On one connection (SQLite in memory) this read waits for the transaction to end.
        outside = read(actor);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(names(await (outside ?? []))).toEqual(["committed"]);
    // The family's count is now what the read above would have seen inside the rolled-back transaction.
    await rename(actor, record.id, "committed again");
    expect(names(await read(actor))).toEqual(["committed again"]);
  });

  it("reads again unless on SQLite whose kept family has not changed; kept records are frozen", async () => {
    const actor = await env.newActor();
    const record = await diagram(actor, "kept");
    await read(actor);
    const before = diagramReads();
    const again = await read(actor);
    await env.store.transaction((tx) => read(actor, "issue", tx));
    expect(diagramReads() - before).toBe(keeps() ? 0 : 2);
    // A write to another family keeps what was kept.
    await env.work(actor, { title: "Not a diagram" });
    await read(actor);
    expect(diagramReads() - before).toBe(keeps() ? 0 : 3);
    await rename(actor, record.id, "changed");
    await read(actor);
    expect(diagramReads() - before).toBe(keeps() ? 1 : 4);
    expect(Object.isFrozen(again[0]?.data)).toBe(keeps());
  });
});

describeStores("kept records of one record", (env) => {
  const part = (actor: Actor, name: string) =>
    env.store.createRecord<{ name: string }>(actor, {
      kind: "part",
      idType: "product",
      prefix: "PROD",
      label: name,
      data: { name },
    });
  /** Reads of one record as a write's lookups make them: in a transaction under its request's counts. */
  const lookUp = async (actor: Actor, idOrDisplayId: string) =>
    env.store.transaction(
      (tx) => tx.getRecord<{ name: string }>(actor.orgId, ["part"], idOrDisplayId),
      await env.store.changes?.now(),
    );
  const partReads = () =>
    env.queries.filter((query) => /^select .* from "records" where/s.test(query)).length;

  it("keeps a record found by its id while others of its family are created, and sees its change at once", async () => {
    const actor = await env.newActor();
    const kept = await part(actor, "kept");
    await lookUp(actor, kept.id);
    const before = partReads();
    const again = await lookUp(actor, kept.id);
    await part(actor, "another");
    expect((await lookUp(actor, kept.id))?.data.name).toBe("kept");
    expect(partReads() - before).toBe(0);
    // What is served is the caller's to change.
    if (again) again.data.name = "changed by a caller";
    expect((await lookUp(actor, kept.id))?.data.name).toBe("kept");
    await env.store.updateRecord<{ name: string }>(actor, "part", kept.id, () => ({
      data: { name: "renamed" },
    }));
    expect((await lookUp(actor, kept.id))?.data.name).toBe("renamed");
    await env.store.deleteRecord(actor, "part", kept.id);
    expect(await lookUp(actor, kept.id)).toBeUndefined();
  });

  it("reads again by display id, and after a miss, once another record of the family is created", async () => {
    const actor = await env.newActor();
    const first = await part(actor, "first");
    await lookUp(actor, first.display_id);
    const before = partReads();
    await lookUp(actor, first.display_id);
    expect(partReads() - before).toBe(0);
    await part(actor, "second");
    await lookUp(actor, first.display_id);
    expect(partReads() - before).toBe(1);
    const next = `PROD-${Number(first.display_id.slice("PROD-".length)) + 2}`;
    expect(await lookUp(actor, next)).toBeUndefined();
    const third = await part(actor, "third");
    expect(third.display_id).toBe(next);
    expect((await lookUp(actor, next))?.id).toBe(third.id);
  });
});
