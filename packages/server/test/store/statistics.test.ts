// The planner's statistics after a bulk load: updateStatistics gathers them on PostgreSQL (ANALYZE of the
// store's own schema) and is a harmless no-op on SQLite; either way the reads go on as before.
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { expect, it } from "vitest";
import { describeStores } from "./suite.js";

describeStores("store statistics", (env) => {
  it("refreshes after a bulk load, and reads by id still find the record", async () => {
    const actor = await env.newActor();
    const made: Array<{ id: string }> = [];
    for (let i = 0; i < 30; i++) made.push(await env.work(actor, { title: `bulk ${i}` }));
    await env.store.updateStatistics();
    const last = made.at(-1);
    expect((await env.store.getRecordJson(actor.orgId, ["work"], last?.id ?? ""))?.id).toBe(last?.id);
    const schema = env.target.options.postgresSchema;
    if (env.target.options.databaseUrl && schema) {
      const client = new pg.Client({ connectionString: env.target.options.databaseUrl });
      await client.connect();
      try {
        // reltuples is -1 until a table was first analyzed (or vacuumed).
        const { rows } = await client.query(
          `select c.reltuples from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = $1 and c.relname = 'records'`,
          [schema],
        );
        expect(Number(rows[0]?.reltuples)).toBeGreaterThanOrEqual(30);
      } finally {
        await client.end();
      }
    }
  });

  it("keeps SQLite's row estimates but no index samples (which re-prepare statements on every run)", async () => {
    const dataDir = env.target.options.dataDir;
    if (env.target.options.databaseUrl || !dataDir || dataDir === ":memory:") return;
    const actor = await env.newActor();
    for (let i = 0; i < 30; i++) await env.work(actor, { title: `sampled ${i}` });
    const file = new Database(join(dataDir, "workapi.sqlite"));
    try {
      // As an ANALYZE of a build with STAT4 leaves them, and as a database made before this release holds them.
      file.exec("analyze");
      const count = (table: string) => file.prepare(`select count(*) from ${table}`).pluck().get() as number;
      expect(count("sqlite_stat4")).toBeGreaterThan(0);
      await env.store.updateStatistics();
      expect(count("sqlite_stat1")).toBeGreaterThan(0);
      expect(count("sqlite_stat4")).toBe(0);
    } finally {
      file.close();
    }
  });
});

describeStores("the change counts' tables", (env) => {
  it("are rewritten small on PostgreSQL once a bulk load has bloated them, counts and all", async () => {
    const { databaseUrl, postgresSchema: schema } = env.target.options;
    if (!databaseUrl || !schema) return;
    const actor = await env.newActor();
    await env.work(actor, { title: "counted" });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`set search_path = "${schema}"`);
      // As a bulk load leaves it: a version of each row per write, none of them pruned inside a transaction.
      await client.query("begin");
      for (let i = 0; i < 2000; i++) await client.query("update kept_record_changes set n = n + 0");
      await client.query("commit");
      const size = async () =>
        Number((await client.query("select pg_relation_size('kept_record_changes') as b")).rows[0].b);
      const counts = async () =>
        (await client.query("select kind, n from kept_record_changes order by kind")).rows;
      const before = await counts();
      expect(await size()).toBeGreaterThan(64 * 1024);
      await env.store.updateStatistics();
      expect(await size()).toBeLessThanOrEqual(64 * 1024);
      expect(await counts()).toEqual(before);
    } finally {
      await client.end();
    }
  });
});
