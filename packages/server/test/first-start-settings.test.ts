// The first start as a service container makes it: an admin token given in advance (WORKAPI_ADMIN_TOKEN) and
// the demo data loaded on start (WORKAPI_SEED=1), run as a user runs them: the built CLI as a process.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli, startServer } from "./support/servers.mjs";

const dirs: string[] = [];
const children: ChildProcess[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "workapi-first-start-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const TOKEN = "ci-token-0123456789abcdef0123456789abcdef";
const OTHER = "another-token-0123456789abcdef0123456789";

/** The environment over the process's: these cases' own first-start settings, none inherited. */
function envOf(dataDir: string, extra: Record<string, string>): Record<string, string | undefined> {
  return {
    WORKAPI_DATA_DIR: dataDir,
    DATABASE_URL: "",
    WORKAPI_ADMIN_TOKEN: undefined,
    WORKAPI_SEED: undefined,
    ...extra,
  };
}

/**
 * Starts `serve` on a free port; resolves once it has printed `until` (the banner's last line) and answered a
 * request, with its URL, everything it printed, and a stop that sends SIGTERM and resolves to the exit code.
 */
async function serve(dataDir: string, extra: Record<string, string>, until: RegExp) {
  const server = await startServer({ env: envOf(dataDir, extra), host: null, until });
  children.push(server.child);
  // The banner is written before the server answers; what it printed after `until` has arrived by now.
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const stop = async () => (await server.stop()).code;
  return { url: server.url, output: server.output, stop };
}

/** The banner's last line on a first start, and on a later one. */
const FIRST = /try: .*\n/;
const LATER = /admin token: in .*\n/;

async function tagsStatus(url: string, token: string): Promise<number> {
  return (await fetch(`${url}/tags.list`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe("WORKAPI_ADMIN_TOKEN", () => {
  it("is the first start's admin token, saved in admin-token and never printed; a later start with another says it is unknown", async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir, { WORKAPI_ADMIN_TOKEN: TOKEN }, FIRST);
    expect(await tagsStatus(first.url, TOKEN)).toBe(200);
    expect(readFileSync(join(dataDir, "admin-token"), "utf8").trim()).toBe(TOKEN);
    expect(first.output()).toContain("its admin token is the value of WORKAPI_ADMIN_TOKEN");
    expect(first.output()).not.toContain(TOKEN);
    expect(await first.stop()).toBe(0);

    // The organization exists: a later start keeps its token, and says the one it was given is not known.
    const second = await serve(dataDir, { WORKAPI_ADMIN_TOKEN: OTHER }, /not a token of this server.*\n/);
    expect(await tagsStatus(second.url, TOKEN)).toBe(200);
    expect(await tagsStatus(second.url, OTHER)).toBe(401);
    expect(second.output()).toContain("WORKAPI_ADMIN_TOKEN is not a token of this server");
    expect(second.output()).not.toContain(OTHER);
    expect(await second.stop()).toBe(0);

    // Given again the right one, it says nothing of it.
    const third = await serve(dataDir, { WORKAPI_ADMIN_TOKEN: TOKEN }, LATER);
    expect(third.output()).not.toContain("not a token of this server");
    expect(await third.stop()).toBe(0);
  }, 120_000);

  it("is the admin token of a first use through another command (token create)", async () => {
    const dataDir = tempDir();
    const { stderr } = await runCli(
      ["token", "create", "--scopes", "tag:read"],
      envOf(dataDir, { WORKAPI_ADMIN_TOKEN: TOKEN, LOG_LEVEL: "silent" }),
    );
    expect(stderr).toContain("First start");
    expect(stderr).not.toContain(TOKEN);
    expect(readFileSync(join(dataDir, "admin-token"), "utf8").trim()).toBe(TOKEN);
  }, 60_000);

  it.each([
    [
      "too short to be a secret",
      `too-short-${"0".repeat(21)}`,
      /31 characters long, too short to be a secret/,
    ],
    ["with a space", "a token with spaces, long enough for the length", /printable ASCII without spaces/],
  ])("is refused %s, before anything is made", async (_case, value, message) => {
    const dataDir = tempDir();
    const failed = await runCli(
      ["serve", "--port", "0"],
      envOf(dataDir, { WORKAPI_ADMIN_TOKEN: value }),
    ).catch((error: { code: number; stderr: string }) => error);
    expect((failed as { code: number }).code).toBe(1);
    const { stderr } = failed as { stderr: string };
    expect(stderr).toMatch(/^workapi-server: WORKAPI_ADMIN_TOKEN /);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain(value);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe("WORKAPI_SEED", () => {
  it("=1 loads the demo data set on first start, and not again on the next", async () => {
    const dataDir = tempDir();
    const first = await serve(dataDir, { WORKAPI_SEED: "1", WORKAPI_ADMIN_TOKEN: TOKEN }, FIRST);
    expect(first.output()).toMatch(/seeded Default organization in .* 300 works/);
    const works = await fetch(`${first.url}/works.export`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ first: 500 }),
    });
    expect(((await works.json()) as { works: unknown[] }).works).toHaveLength(300);
    expect(await first.stop()).toBe(0);

    const second = await serve(dataDir, { WORKAPI_SEED: "1" }, LATER);
    expect(second.output()).not.toMatch(/seeding|seeded/);
    expect(await second.stop()).toBe(0);
  }, 120_000);

  it("unset (or 0) loads nothing", async () => {
    const dataDir = tempDir();
    const server = await serve(dataDir, { WORKAPI_SEED: "0", WORKAPI_ADMIN_TOKEN: TOKEN }, FIRST);
    const works = await fetch(`${server.url}/works.export`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ first: 10 }),
    });
    expect(((await works.json()) as { works: unknown[] }).works).toEqual([]);
    expect(existsSync(join(dataDir, "admin-token"))).toBe(true);
    expect(await server.stop()).toBe(0);
  }, 120_000);
});
