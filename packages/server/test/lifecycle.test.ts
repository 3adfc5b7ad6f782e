// The service's life: data survives a restart, shutdown lets in-flight requests finish, and the operator CLI
// (first start, token create/revoke, SIGTERM) works as a user runs it.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTag } from "./fixtures.js";
import { startTestServer } from "./harness.js";
import { runCli, startServer } from "./support/servers.mjs";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "workapi-test-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("restart", () => {
  it("keeps records and tokens in the data directory across restarts", async () => {
    const dataDir = tempDir();
    const first = await startTestServer("sqlite", { dataDir });
    const tag = await createTag(first.store, first.actor, "survives");
    const token = first.adminToken;
    await first.close();

    const second = await startTestServer("sqlite", { dataDir });
    const res = await second.call("GET", "/tags.list?name=survives", { token });
    expect(res.status).toBe(200);
    expect(res.body.tags.map((t: { id: string }) => t.id)).toEqual([tag.id]);
    await second.close();
  });
});

describe("graceful shutdown", () => {
  it("finishes in-flight requests, then refuses new ones", async () => {
    let started!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server = await startTestServer("sqlite", {
      handlers: {
        "tags.list": async () => {
          started();
          await new Promise((resolve) => setTimeout(resolve, 400));
          return { tags: [] };
        },
      },
    });
    const slow = server.call("GET", "/tags.list");
    await inFlight;
    const closing = server.close();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ tags: [] });
    await closing;
    await expect(fetch(`${server.url}/tags.list`)).rejects.toThrow();
  });
});

describe("the workapi-server CLI", () => {
  it("starts on 127.0.0.1 by default, prints the URL, docs and a first-start admin token saved owner-only, and stops on SIGTERM", async () => {
    const dataDir = tempDir();
    // No --host: the default is the one under test.
    const server = await startServer({
      env: { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: "" },
      host: null,
      until: /saved in .*admin-token/,
      timeoutMs: 20_000,
    });
    const { url } = server;
    const output = server.stdout();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output).toContain(`${url}/docs`);
    const file = join(dataDir, "admin-token");
    const secret = readFileSync(file, "utf8").trim();
    expect(output).toContain(secret);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const tags = await fetch(`${url}/tags.list`, { headers: { authorization: `Bearer ${secret}` } });
    expect(tags.status).toBe(200);
    const docs = await fetch(`${url}/docs`);
    expect(docs.headers.get("content-type")).toContain("text/html");
    expect(await docs.text()).toContain("workapi");

    expect((await server.stop()).code).toBe(0);
  }, 30_000);

  it("issues a token that works and revokes it", async () => {
    const dataDir = tempDir();
    const env = { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: "" };
    const created = await runCli(["token", "create", "--scopes", "tag:read"], env);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^wkp_/);
    const id = /issued (\S+)/.exec(created.stderr)?.[1] as string;

    const server = await startServer({ env, until: /docs:/, timeoutMs: 20_000 });
    const { url } = server;
    expect((await fetch(`${url}/tags.list`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(
      200,
    );
    const forbidden = await fetch(`${url}/code-changes.get?id=CC-1`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(forbidden.status).toBe(403);

    await runCli(["token", "revoke", id], env);
    const revoked = await fetch(`${url}/tags.list`, { headers: { authorization: `Bearer ${secret}` } });
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { type: string }).type).toBe("token_revoked");
    await server.stop();
  }, 30_000);

  it("explains a bad flag", async () => {
    const failed = await runCli(["serve", "--port", "abc"]).catch(
      (error: { stderr: string; code: number }) => error,
    );
    expect((failed as { code: number }).code).not.toBe(0);
    expect((failed as { stderr: string }).stderr).toMatch(/whole number/);
  });

  it("has --help on every command", async () => {
    for (const args of [
      ["--help"],
      ["serve", "--help"],
      ["seed", "--help"],
      ["token", "create", "--help"],
      ["token", "revoke", "--help"],
    ]) {
      const { stdout } = await runCli(args);
      expect(stdout, args.join(" ")).toMatch(/Usage: workapi-server/);
    }
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect((await runCli(["--version"])).stdout.trim()).toBe(version);
  });
});

describe("seeding from the CLI", () => {
  it("loads the demo data set and reports what it created", async () => {
    const dataDir = tempDir();
    const env = { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: "" };
    const { stderr } = await runCli(["seed", "--works", "60"], env);
    expect(stderr).toMatch(/seeding works: 60\/60/);
    expect(stderr).toMatch(/seeded .* 60 works/);
    const again = await runCli(["token", "create", "--scopes", "issue:read,ticket:read"], env);
    const server = await startServer({ env, until: /docs:/, timeoutMs: 20_000 });
    const { url } = server;
    const exported = await fetch(`${url}/works.export`, {
      method: "POST",
      headers: { authorization: `Bearer ${again.stdout.trim()}`, "content-type": "application/json" },
      body: JSON.stringify({ first: 100 }),
    });
    const body = (await exported.json()) as { works: Array<{ type: string }> };
    expect(body.works.length).toBe(24); // 60 works over five types: 12 issues and 12 tickets
    expect(new Set(body.works.map((work) => work.type))).toEqual(new Set(["issue", "ticket"]));
    await server.stop();
  }, 60_000);
});
