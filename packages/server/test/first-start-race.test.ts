// Two servers started together on an empty database (the built CLI, `node dist/cli.js serve`; run
// `pnpm run build` first) make exactly one organization, one admin user and one admin token, and only one of
// them prints a first-start token: on a fresh SQLite data directory they share, and on a fresh PostgreSQL
// database of the test's own (created and dropped here; skipped without DATABASE_URL), also when each is
// `serve --workers 2` (a primary that makes the organization before its workers start; needs REDIS_URL).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type OpenStoreOptions, openStore } from "../src/store/open.js";

const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const { DATABASE_URL, REDIS_URL } = process.env;
if (!DATABASE_URL) console.warn("first-start race on PostgreSQL skipped: DATABASE_URL is unset");
if (!REDIS_URL) console.warn("first-start race with --workers skipped: REDIS_URL is unset");

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "workapi-race-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts `serve`; resolves with what it printed once it has said what became of the admin token. */
function serve(env: NodeJS.ProcessEnv): { child: ChildProcess; started: Promise<string> } {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
    { env: { ...process.env, REDIS_URL: "", ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const started = new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
      if (/admin token: |try: curl/.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.stderr?.on("data", (chunk) => {
      output += String(chunk);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  return { child, started };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Starts two servers at once with `envs`, stops them, and checks what the database holds. */
async function raceTwo(envs: [NodeJS.ProcessEnv, NodeJS.ProcessEnv], options: OpenStoreOptions) {
  const servers = envs.map(serve);
  try {
    const outputs = await Promise.all(servers.map((server) => server.started));
    const firstStarts = outputs.filter((output) => output.includes("First start"));
    expect(firstStarts, outputs.join("\n----\n")).toHaveLength(1);
    const other = outputs.find((output) => !output.includes("First start")) as string;
    // The other reuses the organization: it says where the token is, or that the organization existed.
    expect(other).toMatch(/admin token: (in |not in .* already existed)/);
    expect(other).not.toMatch(/wkp_/);
  } finally {
    await Promise.all(servers.map((server) => stop(server.child)));
  }
  const store = await openStore(options);
  try {
    const orgs = await store.listOrgs();
    expect(orgs).toHaveLength(1);
    const org = orgs[0] as (typeof orgs)[number];
    const users = await store.listDevUsers(org.id);
    expect(users).toHaveLength(1);
    const admin = users[0] as (typeof users)[number];
    expect(await store.listTokens(org.id, { subject: admin.id })).toHaveLength(1);
  } finally {
    await store.close();
  }
}

/** Two servers (each with `env` besides) started together on a PostgreSQL database of their own. */
async function raceOnFreshDatabase(env: NodeJS.ProcessEnv) {
  const { default: pg } = await import("pg");
  const name = `workapi_race_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(DATABASE_URL as string);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    await raceTwo(
      [
        { ...env, WORKAPI_DATA_DIR: tempDir(), DATABASE_URL: databaseUrl },
        { ...env, WORKAPI_DATA_DIR: tempDir(), DATABASE_URL: databaseUrl },
      ],
      { databaseUrl },
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

describe("two servers started together on an empty database", () => {
  it("make one organization and one admin token on a shared SQLite data directory", async () => {
    const dataDir = join(tempDir(), "data");
    const env = { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: "" };
    await raceTwo([env, env], { dataDir });
  }, 120_000);

  it.skipIf(!DATABASE_URL)(
    "make one organization and one admin token on a fresh PostgreSQL database",
    () => raceOnFreshDatabase({}),
    120_000,
  );

  it.skipIf(!DATABASE_URL || !REDIS_URL)(
    "make one organization and one admin token with --workers 2 each (WORKAPI_WORKERS)",
    () =>
      raceOnFreshDatabase({
        WORKAPI_WORKERS: "2",
        REDIS_URL,
        WORKAPI_REDIS_PREFIX: `workapi-race-${randomBytes(4).toString("hex")}:`,
      }),
    120_000,
  );
});
