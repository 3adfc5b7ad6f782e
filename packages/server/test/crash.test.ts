// Durability under a crash: the real server runs as a child process, concurrent writers create tags and work
// items, the process is killed with SIGKILL in the middle of the load, and after a restart on the same data
// directory (SQLite) or database (PostgreSQL) every write that had been acknowledged with a 2xx is there.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { databases } from "./harness.js";

const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const run = promisify(execFile);
const WRITERS = 20;
const KILL_AFTER_ACKS = 600;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An empty place for the server's data: a temporary directory, or a PostgreSQL database of its own. */
async function freshStorage(database: string): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), "workapi-crash-"));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  if (database === "sqlite") return { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: "" };
  const admin = new URL(process.env.DATABASE_URL as string);
  const name = `crash_${randomBytes(5).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: admin.toString() });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: url.toString() };
}

function serve(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
    {
      env: { ...process.env, ...env, WORKAPI_RATE_LIMIT_MAX: "1000000000" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening:\n${output}`));
    });
  });
}

async function post(url: string, token: string, path: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the fields read are checked by the assertions
  return { status: response.status, body: (await response.json()) as any };
}

describe.each(databases)("a kill -9 under concurrent writes on %s", (database) => {
  it("loses no acknowledged write", async () => {
    const env = await freshStorage(database);
    const scopes = "tag:all,product:all,issue:all,dev_user:read";
    const created = await run(process.execPath, [cli, "token", "create", "--scopes", scopes], {
      env: { ...process.env, ...env },
    });
    const token = created.stdout.trim();

    const first = await serve(env);
    const self = await post(first.url, token, "/dev-users.self", {});
    expect(self.status).toBe(200);
    const part = await post(first.url, token, "/parts.create", {
      type: "product",
      name: "crash",
      owned_by: [self.body.dev_user.id],
    });
    expect(part.status).toBe(201);

    const acknowledged = { tags: [] as string[], works: [] as string[] };
    let failures = 0;
    let stop = false;
    let killed!: () => void;
    const killedNow = new Promise<void>((resolve) => {
      killed = resolve;
    });
    const writer = async (n: number) => {
      for (let i = 0; !stop; i++) {
        try {
          if ((n + i) % 2 === 0) {
            const answer = await post(first.url, token, "/tags.create", { name: `crash-${n}-${i}` });
            if (answer.status === 201) acknowledged.tags.push(answer.body.tag.id);
          } else {
            const answer = await post(first.url, token, "/works.create", {
              type: "issue",
              title: `crash ${n} ${i}`,
              applies_to_part: part.body.part.id,
              owned_by: [self.body.dev_user.id],
            });
            if (answer.status === 201) acknowledged.works.push(answer.body.work.id);
          }
          if (acknowledged.tags.length + acknowledged.works.length >= KILL_AFTER_ACKS) killed();
        } catch {
          failures++; // the connection died with the server: not acknowledged
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
    await killedNow;
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.tags.length + acknowledged.works.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);

    const second = await serve(env);
    try {
      const missingWorks: string[] = [];
      for (const id of acknowledged.works) {
        const answer = await post(second.url, token, "/works.get", { id });
        if (answer.status !== 200) missingWorks.push(id);
      }
      const stored = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await post(second.url, token, "/tags.list", {
          limit: 100,
          ...(cursor ? { cursor } : {}),
        });
        expect(page.status).toBe(200);
        for (const tag of page.body.tags as Array<{ id: string }>) stored.add(tag.id);
        cursor = page.body.next_cursor;
      } while (cursor);
      const missingTags = acknowledged.tags.filter((id) => !stored.has(id));
      console.log(
        `${database}: ${acknowledged.tags.length} tags and ${acknowledged.works.length} works acknowledged before kill -9 (${failures} requests cut off); missing after restart: ${missingTags.length + missingWorks.length}`,
      );
      expect(missingWorks).toEqual([]);
      expect(missingTags).toEqual([]);
    } finally {
      second.child.kill("SIGTERM");
      await new Promise((resolve) => second.child.once("exit", resolve));
    }
  }, 120_000);
});
