// Sandboxes on two server processes (run `pnpm run build` first: the built CLI is started) sharing one
// PostgreSQL database of the test's own and one Redis: a sandbox made through one is served by the other
// (its token, its scenarios, its journal, which holds the requests of both in order), deleted through one it
// is refused by the other at once, and one past its expiry is deleted by the processes' sweep. Skipped
// without DATABASE_URL and REDIS_URL.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const { DATABASE_URL, REDIS_URL } = process.env;
const both = Boolean(DATABASE_URL && REDIS_URL);
if (!both) console.warn("sandboxes on two processes skipped: DATABASE_URL and REDIS_URL must both be set");

interface Served {
  child: ChildProcess;
  url: string;
  dataDir: string;
  exited: Promise<number | null>;
}

/** Starts `serve` on a data directory of its own; resolves once it prints where it listens. */
function serve(env: NodeJS.ProcessEnv): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), "workapi-sandboxes-scale-"));
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn", "--data-dir", dataDir],
    {
      env: { ...process.env, WORKAPI_MAX_EVENT_LOOP_DELAY_MS: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    const poll = setInterval(() => {
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url && /admin token: |try: curl|already existed/.test(output)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, url, dataDir, exited });
      }
    }, 20);
    exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
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
  const name = `workapi_sandboxes_${randomBytes(6).toString("hex")}`;
  let admin: import("pg").Client;
  let a: Served | undefined;
  let b: Served | undefined;
  let token: string;
  let databaseUrl: string;

  beforeAll(async () => {
    const { default: pg } = await import("pg");
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(DATABASE_URL as string);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      WORKAPI_REDIS_PREFIX: `workapi-sandboxes-test-${randomBytes(4).toString("hex")}:`,
      WORKAPI_SANDBOX_SWEEP_SECONDS: "1",
    };
    a = await serve(env);
    b = await serve(env);
    token = readFileSync(join(a.dataDir, "admin-token"), "utf8").trim();
  }, 120_000);

  afterAll(async () => {
    for (const served of [a, b]) {
      if (served?.child.exitCode === null) served.child.kill("SIGTERM");
      await served?.exited;
      if (served) rmSync(served.dataDir, { recursive: true, force: true });
    }
    if (admin) {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it("serves through one the sandbox made through the other: token, scenarios, journal, deletion", async () => {
    const { url: first } = a as Served;
    const { url: second } = b as Served;
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
    const made = await call((a as Served).url, "/sandboxes.create", token, { ttl_seconds: 1, seed: true });
    expect(made.status).toBe(201);
    const { id, token: own } = made.body.sandbox;
    expect((await call((b as Served).url, "/tags.list", own)).status).toBe(200);
    let status = 200;
    for (let waited = 0; waited < 15_000 && status !== 401; waited += 250) {
      await sleep(250);
      status = (await call((b as Served).url, "/tags.list", own)).status;
    }
    expect(status).toBe(401);
    for (const served of [a, b] as Served[]) {
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
