// The operator's tenancy commands (org create / list / deactivate) and first use through seed or token create
// on an empty data directory, run as a user runs them: the built CLI as a process.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startTestServer } from "./harness.js";
import { runCli } from "./support/servers.mjs";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "workapi-org-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The command on `dataDir`: SQLite whatever DATABASE_URL the tests run with, and no logs. */
async function run(dataDir: string, ...args: string[]) {
  const env = { LOG_LEVEL: "silent", DATABASE_URL: undefined };
  return runCli([...args, "--data-dir", dataDir], env, { timeout: 60_000 });
}

const SECRET = /wkp_[A-Za-z0-9_-]{20,}/;

describe("first use without serve", () => {
  it.each([
    ["seed", ["seed", "--works", "3"]],
    ["token create", ["token", "create", "--scopes", "tag:read"]],
  ])(
    "%s on an empty data directory writes and prints the admin token",
    async (_name, args) => {
      const dataDir = tempDir();
      const { stderr } = await run(dataDir, ...args);
      const file = join(dataDir, "admin-token");
      const admin = readFileSync(file, "utf8").trim();
      expect(admin).toMatch(SECRET);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(stderr).toContain(admin);
      expect(stderr).toContain("First start");

      // The admin token works, and a second command creates nothing more.
      const server = await startTestServer("sqlite", { dataDir });
      try {
        expect((await server.call("GET", "/tags.list", { token: admin })).status).toBe(200);
      } finally {
        await server.close();
      }
      const again = await run(dataDir, "token", "create", "--scopes", "tag:read");
      expect(again.stderr).not.toContain("First start");
      expect(readFileSync(file, "utf8").trim()).toBe(admin);
    },
    120_000,
  );
});

describe("org commands", () => {
  it("creates an isolated organization, lists it, and deactivates it", async () => {
    const dataDir = tempDir();
    await run(dataDir, "token", "create", "--scopes", "tag:read"); // the first organization
    const first = readFileSync(join(dataDir, "admin-token"), "utf8").trim();

    const tokenFile = join(dataDir, "acme-token");
    const created = await run(dataDir, "org", "create", "--name", "Acme", "--token-file", tokenFile);
    const acme = created.stdout.trim();
    expect(acme).toMatch(SECRET);
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(acme);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);

    const listed = (await run(dataDir, "org", "list")).stdout.trim().split("\n");
    expect(listed).toHaveLength(2);
    const acmeLine = listed.find((line) => line.endsWith("\tAcme")) as string;
    expect(acmeLine.split("\t")[1]).toBe("active");
    const acmeId = acmeLine.split("\t")[0] as string;

    // Another organization's token file is never overwritten.
    await expect(
      run(dataDir, "org", "create", "--name", "Other", "--token-file", tokenFile),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining("holds a token of organization"),
    });
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(acme);
    expect((await run(dataDir, "org", "list")).stdout.trim().split("\n")).toHaveLength(2);

    const server = await startTestServer("sqlite", { dataDir });
    try {
      const made = await server.call("POST", "/tags.create", { token: acme, body: { name: "acme-only" } });
      expect(made.status).toBe(201);
      const seenByFirst = await server.call("GET", "/tags.list?name=acme-only", { token: first });
      expect(seenByFirst.body.tags).toEqual([]);
    } finally {
      await server.close();
    }

    await run(dataDir, "org", "deactivate", acmeId);
    expect((await run(dataDir, "org", "list")).stdout).toContain(`${acmeId}\tdeactivated`);
    const after = await startTestServer("sqlite", { dataDir });
    try {
      const refused = await after.call("GET", "/tags.list", { token: acme });
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe("dev_org_deactivated");
      expect((await after.call("GET", "/tags.list", { token: first })).status).toBe(200);
    } finally {
      await after.close();
    }
    await expect(run(dataDir, "org", "deactivate", "no-such-org")).rejects.toMatchObject({
      stderr: expect.stringContaining("no organization"),
    });
  }, 180_000);
});
