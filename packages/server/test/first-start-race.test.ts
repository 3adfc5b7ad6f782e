// Two servers started together on an empty database (the built CLI, `node dist/cli.js serve`; run
// `pnpm run build` first) make exactly one organization, one admin user and one admin token, and only one of
// them prints a first-start token: on a fresh SQLite data directory they share, and on a fresh PostgreSQL
// database of the test's own (created and dropped here; skipped without DATABASE_URL), also when each is
// `serve --workers 2` (a primary that makes the organization before its workers start; needs REDIS_URL).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type OpenStoreOptions, openStore } from "../src/store/open.js";
import { temporaryStorage } from "./support/databases.mjs";
import { type ServerChild, startServer } from "./support/servers.mjs";

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

/** Starts `serve`; resolves once it has said what became of the admin token. */
function serve(env: Record<string, string | undefined>): Promise<ServerChild> {
  return startServer({ env: { REDIS_URL: "", ...env }, until: /admin token: |try: curl/ });
}

/** Starts two servers at once with `envs`, stops them, and checks what the database holds. */
async function raceTwo(envs: Array<Record<string, string | undefined>>, options: OpenStoreOptions) {
  const servers = envs.map(serve);
  try {
    const outputs = await Promise.all(servers.map(async (server) => (await server).output()));
    const firstStarts = outputs.filter((output) => output.includes("First start"));
    expect(firstStarts, outputs.join("\n----\n")).toHaveLength(1);
    const other = outputs.find((output) => !output.includes("First start")) as string;
    // The other reuses the organization: it says where the token is, or that the organization existed.
    expect(other).toMatch(/admin token: (in |not in .* already existed)/);
    expect(other).not.toMatch(/wkp_/);
  } finally {
    // A server that failed to start was stopped by startServer.
    await Promise.all(
      servers.map((server) =>
        server.then(
          (started) => started.stop(),
          () => undefined,
        ),
      ),
    );
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
async function raceOnFreshDatabase(env: Record<string, string | undefined>) {
  const storage = await temporaryStorage("postgres", { prefix: "workapi_race" });
  try {
    const databaseUrl = storage.databaseUrl as string;
    await raceTwo(
      [
        { ...env, WORKAPI_DATA_DIR: tempDir(), DATABASE_URL: databaseUrl },
        { ...env, WORKAPI_DATA_DIR: tempDir(), DATABASE_URL: databaseUrl },
      ],
      { databaseUrl },
    );
  } finally {
    await storage.remove();
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
