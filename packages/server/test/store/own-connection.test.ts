// A connection of the store's own (src/store/own-connection.ts), as the change counts are read on: it connects
// on first use, connects anew after its backend is gone, keeps its connection when a statement fails on it,
// reports its statement to the store's query log, and is ended with the store. On PostgreSQL only (DATABASE_URL); SQLite reads its counts from the file.
import { CompiledQuery, Log } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropPostgresSchema, openStore } from "../../src/store/open.js";
import { OwnConnection } from "../../src/store/own-connection.js";
import { DATABASE_URL, randomSchema } from "./suite.js";

if (!DATABASE_URL) console.warn("own-connection: DATABASE_URL is not set; its tests are skipped");

describe.skipIf(!DATABASE_URL)("the counts connection on postgres", () => {
  const url = DATABASE_URL ?? "";
  const admin = new pg.Client({ connectionString: url });
  beforeAll(() => admin.connect());
  afterAll(() => admin.end());
  // Its own backend's process id, as the one column of the one row.
  const pid = CompiledQuery.raw("select pg_backend_pid()::text");
  const backendsOf = async (pids: string[]) =>
    (await admin.query("select pid from pg_stat_activity where pid = any($1::int[])", [pids])).rowCount;

  it("reads on one connection, connects anew once its backend is gone, and ends on close", async () => {
    const logged: string[] = [];
    const log = new Log((event) => {
      logged.push(`${event.level} ${event.query.sql}`);
    });
    const counts = new OwnConnection(pg.Client, { connectionString: url }, "pid", pid, undefined, log);
    const first = String(await counts.read());
    expect(await counts.read()).toBe(first);
    expect(logged).toEqual([`query ${pid.sql}`, `query ${pid.sql}`]);

    await admin.query("select pg_terminate_backend($1::int)", [first]);
    // A read may meet the connection before the client has learned that it broke; the one after connects.
    let second = await counts.read().then(String, () => undefined);
    if (second === undefined) {
      expect(logged.at(-1)).toBe(`error ${pid.sql}`);
      second = String(await counts.read());
    }
    expect(second).not.toBe(first);

    await counts.close();
    await expect(counts.read()).rejects.toThrow("the store is closed");
    await expect.poll(() => backendsOf([first, second])).toBe(0);
  });

  it("keeps its connection when its statement fails there, and binds each read's parameters", async () => {
    // The backend's process id, divided by the parameter: by zero, a failure of the statement alone.
    const divided = CompiledQuery.raw("select (pg_backend_pid() / $1::int)::text");
    const connection = new OwnConnection(pg.Client, { connectionString: url }, "divided", divided);
    try {
      const first = await connection.read([1]);
      await expect(connection.read([0])).rejects.toMatchObject({ code: "22012" });
      expect(await connection.read([1])).toBe(first);
    } finally {
      await connection.close();
    }
  });

  it("is ended when the store closes", async () => {
    const schema = randomSchema();
    const store = await openStore({ databaseUrl: url, postgresSchema: schema });
    try {
      await store.changes?.now();
    } finally {
      await store.close();
      await dropPostgresSchema(url, schema);
    }
    await expect(Promise.resolve(store.changes?.now())).rejects.toThrow("the store is closed");
  });
});
