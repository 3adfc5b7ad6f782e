// startStandIn (src/stand-in.ts), as a test runner's globalSetup uses it: a server on a free port and a
// database of its own, an operator token that makes sandboxes, and stop() that leaves nothing behind.
import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startStandIn } from "../src/stand-in.js";
import { postJson } from "./support/servers.mjs";

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl) console.warn("stand-in: DATABASE_URL is not set; the PostgreSQL case is skipped");

async function databaseExists(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const name = new URL(url).pathname.slice(1);
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe.each(["sqlite", "postgres"] as const)("startStandIn on %s", (database) => {
  it.skipIf(database === "postgres" && !postgresUrl)(
    "serves sandboxes with its operator token on a database of its own; stop() closes it and removes the data",
    async () => {
      const standIn = await startStandIn(database === "postgres" ? { databaseUrl: postgresUrl } : {});
      const post = (path: string, token: string, body: unknown) => postJson(standIn.url, token, path, body);
      try {
        expect(existsSync(standIn.dataDir)).toBe(true);
        if (database === "postgres") expect(await databaseExists(standIn.databaseUrl ?? "")).toBe(true);
        const made = await post("/sandboxes.create", standIn.token, { name: "stand-in.test.ts" });
        expect(made.status).toBe(201);
        const { sandbox } = made.body as { sandbox: { token: string } };
        expect((await post("/tags.create", sandbox.token, { name: "from a sandbox" })).status).toBe(201);
      } finally {
        await standIn.stop();
      }
      await expect(fetch(`${standIn.url}/health`)).rejects.toThrow();
      expect(existsSync(standIn.dataDir)).toBe(false);
      if (database === "postgres") expect(await databaseExists(standIn.databaseUrl ?? "")).toBe(false);
    },
    60_000,
  );
});
