// The lookups a write makes before it writes, kept on PostgreSQL (src/store/kept-records.ts): a second
// works.create runs none of them, and a change made by hand to what was kept (a part deleted, an owner
// deleted) is seen by the very next write; a transaction that has written looks up for real.
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./harness.js";
import { createPart, createUser, ok } from "./record-builders.js";

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl)
  console.warn("kept-lookups.test.ts: DATABASE_URL is not set, so the PostgreSQL suite is skipped");

/** Runs `text` on the server's PostgreSQL schema by hand, as an operator would. */
async function bySql(server: TestServer, text: string, parameters: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: server.storeOptions.databaseUrl });
  await client.connect();
  try {
    await client.query(`set search_path to "${server.storeOptions.postgresSchema}"`);
    await client.query(text, parameters);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresUrl)("lookups kept for writes on PostgreSQL", () => {
  let server: TestServer;
  let statements: string[];
  let part: { id: string };
  const create = (owner: string, title = "Kept lookups") =>
    server.post("/works.create", { type: "issue", title, applies_to_part: part.id, owned_by: [owner] });

  beforeEach(async () => {
    statements = [];
    server = await startTestServer("postgres", {
      log: (event) => {
        if (event.level === "query") statements.push(event.query.sql);
      },
    });
    part = await createPart(server, "product", "Kept");
  });
  afterEach(async () => {
    await server.close();
  });

  const lookups = () =>
    statements.filter((text) => /^select .* from "(records|dev_users)"/s.test(text) && !/"works"/.test(text));

  it("runs a works.create's lookups once, and not for the next one", async () => {
    await ok(server, "/works.create", {
      type: "issue",
      title: "First",
      applies_to_part: part.id,
      owned_by: [server.admin.id],
    });
    statements.length = 0;
    const second = await create(server.admin.id);
    expect(second.status).toBe(201);
    expect(lookups()).toEqual([]);
    expect(statements.some((text) => text.startsWith('insert into "records"'))).toBe(true);
  });

  it("sees a part deleted by hand on the very next write", async () => {
    expect((await create(server.admin.id)).status).toBe(201);
    await bySql(server, "delete from records where id = $1", [part.id]);
    const after = await create(server.admin.id);
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.status).toBeLessThan(500);
  });

  it("sees an owner deleted by hand on the very next write", async () => {
    const owner = await createUser(server, "Owner");
    expect((await create(owner.id)).status).toBe(201);
    await bySql(server, "delete from dev_users where id = $1", [owner.id]);
    const after = await create(owner.id);
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.status).toBeLessThan(500);
  });

  it("looks up for real once its transaction has written", async () => {
    const at = await server.store.changes?.now();
    await server.store.transaction(async (tx) => {
      expect(await tx.getRecord(server.org.id, ["part"], part.id)).toBeDefined();
      statements.length = 0;
      expect(await tx.getRecord(server.org.id, ["part"], part.id)).toBeDefined();
      expect(lookups()).toEqual([]);
      await tx.createRecord(server.actor, {
        kind: "part",
        idType: "product",
        prefix: "PROD",
        label: "Written",
        data: { name: "Written" },
      });
      statements.length = 0;
      expect(await tx.getRecord(server.org.id, ["part"], part.id)).toBeDefined();
      expect(lookups()).toHaveLength(1);
    }, at);
  });
});
