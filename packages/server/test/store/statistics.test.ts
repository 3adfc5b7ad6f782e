// The planner's statistics after a bulk load: updateStatistics gathers them on PostgreSQL (ANALYZE of the
// store's own schema) and is a harmless no-op on SQLite; either way the reads go on as before.
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
});
