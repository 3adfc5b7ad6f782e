// Sandboxes on two server processes (run `pnpm run build` first: the built CLI is started) sharing one
// PostgreSQL database of the test's own and one Redis: a sandbox made through one is served by the other
// (its token, its scenarios, its journal, which holds the requests of both in order), deleted through one it
// is refused by the other at once, and one past its expiry is deleted by the processes' sweep. Skipped
// without DATABASE_URL and REDIS_URL.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TemporaryStorage, temporaryStorage } from "./support/databases.mjs";
import { type ServerChild, startServer } from "./support/servers.mjs";

const { DATABASE_URL, REDIS_URL } = process.env;
const both = Boolean(DATABASE_URL && REDIS_URL);
if (!both) console.warn("sandboxes on two processes skipped: DATABASE_URL and REDIS_URL must both be set");

/** Starts `serve` on `storage`; resolves once it prints where it listens and what became of its token. */
function serve(storage: TemporaryStorage, env: Record<string, string | undefined>): Promise<ServerChild> {
  return startServer({
    env: { WORKAPI_MAX_EVENT_LOOP_DELAY_MS: "0", ...env, WORKAPI_DATA_DIR: storage.dataDir },
    until: /admin token: |try: curl|already existed/,
  });
}

async function call(url: string, path: string, token: string, body?: unknown, headers = {}) {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  return { status: response.status, body: (await response.json()) as any };
}

describe.skipIf(!both)("sandboxes on two server processes, one PostgreSQL database and one Redis", () => {
  const storages: TemporaryStorage[] = [];
  let a: ServerChild | undefined;
  let b: ServerChild | undefined;
  let token: string;
  let databaseUrl: string;

  beforeAll(async () => {
    // One database of the test's own, and a data directory for each process.
    const shared = await temporaryStorage("postgres", { prefix: "workapi_sandboxes" });
    const other = await temporaryStorage("sqlite", { prefix: "workapi_sandboxes_scale" });
    storages.push(shared, other);
    databaseUrl = shared.databaseUrl as string;
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      WORKAPI_REDIS_PREFIX: `workapi-sandboxes-test-${randomBytes(4).toString("hex")}:`,
      WORKAPI_SANDBOX_SWEEP_SECONDS: "1",
    };
    a = await serve(shared, env);
    b = await serve(other, env);
    token = readFileSync(join(shared.dataDir, "admin-token"), "utf8").trim();
  }, 120_000);

  afterAll(async () => {
    for (const served of [a, b]) await served?.stop();
    for (const storage of storages) await storage.remove();
  });

  it("serves through one the sandbox made through the other: token, scenarios, journal, deletion", async () => {
    const { url: first } = a as ServerChild;
    const { url: second } = b as ServerChild;
    const made = await call(first, "/sandboxes.create", token, { name: "shared" });
    expect(made.status).toBe(201);
    const sandbox = made.body.sandbox;
    expect((await call(second, "/tags.create", sandbox.token, { name: "on-b" })).status).toBe(201);
    const listed = await call(first, "/tags.list", sandbox.token);
    expect(listed.body.tags.map((tag: { name: string }) => tag.name)).toEqual(["on-b"]);
    const scenario = await call(second, "/tags.list", sandbox.token, undefined, { prefer: "code=503" });
    expect(scenario.status).toBe(503);
    const journal = await call(
      second,
      `/sandboxes.requests.list?id=${encodeURIComponent(sandbox.id)}`,
      token,
    );
    expect(journal.body.requests.map((r: { status: number }) => r.status)).toEqual([201, 200, 503]);
    const ids = (await call(second, "/sandboxes.list", token)).body.sandboxes.map(
      (s: { id: string }) => s.id,
    );
    expect(ids).toContain(sandbox.id);
    expect((await call(second, "/sandboxes.delete", token, { id: sandbox.id })).status).toBe(200);
    const refused = await call(first, "/tags.list", sandbox.token);
    expect(refused.status).toBe(401);
  });

  it("deletes a sandbox past its expiry: one of the processes' sweeps", async () => {
    const made = await call((a as ServerChild).url, "/sandboxes.create", token, {
      ttl_seconds: 1,
      seed: true,
    });
    expect(made.status).toBe(201);
    const { id, token: own } = made.body.sandbox;
    expect((await call((b as ServerChild).url, "/tags.list", own)).status).toBe(200);
    let status = 200;
    for (let waited = 0; waited < 15_000 && status !== 401; waited += 250) {
      await sleep(250);
      status = (await call((b as ServerChild).url, "/tags.list", own)).status;
    }
    expect(status).toBe(401);
    for (const served of [a, b] as ServerChild[]) {
      expect((await call(served.url, `/sandboxes.get?id=${encodeURIComponent(id)}`, token)).status).toBe(404);
    }
    // Its token expires with it; the sweep (every second here) then deletes its records.
    const { default: pg } = await import("pg");
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    let left = -1;
    try {
      for (let waited = 0; waited < 15_000 && left !== 0; waited += 250) {
        const { rows } = await database.query("select count(*)::int as n from records where org_id = $1", [
          id,
        ]);
        left = rows[0]?.n ?? 0;
        if (left !== 0) await sleep(250);
      }
    } finally {
      await database.end();
    }
    expect(left).toBe(0);
  });
});
