// Several server processes act as one (run `pnpm run build` first: the built CLI is started). Two separate
// `serve` processes on one PostgreSQL database of the test's own (created and dropped here) and one Redis
// (under a key prefix of the test's own): a token revoked through one is refused by the other at once, a record
// made through one is read through the other, and a token's rate limit is counted across both. Then
// `serve --workers 2` on the same database: it answers, a worker killed with SIGKILL is replaced while the
// other serves, and SIGTERM drains every worker and exits 0. On SQLite, `--workers 2` serves writes and reads;
// without Redis it is refused with the reason. Two processes started together on an empty database make one
// organization: test/first-start-race.test.ts. Skipped without DATABASE_URL and REDIS_URL (the SQLite cases
// without REDIS_URL).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TemporaryStorage, temporaryStorage } from "./support/databases.mjs";
import { type ServerChild, startServer } from "./support/servers.mjs";

const { DATABASE_URL, REDIS_URL } = process.env;
const both = Boolean(DATABASE_URL && REDIS_URL);
if (!both) console.warn("scale-out on PostgreSQL skipped: DATABASE_URL and REDIS_URL must both be set");
if (!REDIS_URL) console.warn("--workers on SQLite skipped: REDIS_URL is unset");

/** Requests per token per window in these servers: the rate-limit case sends one more than this. */
const LIMIT = 30;

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "workapi-scale-out-"));
  dirs.push(dir);
  return dir;
}

/** Starts `serve` with `args` and `env`; resolves once it prints where it listens and its banner's last line. */
function serve(args: string[], env: Record<string, string | undefined>): Promise<ServerChild> {
  // Not shed on a busy machine: these cases are about processes, not load. The banner ends with the admin
  // token's line (with workers, printed once every worker listens).
  return startServer({
    args,
    env: { WORKAPI_MAX_EVENT_LOOP_DELAY_MS: "0", ...env },
    until: /admin token: |try: curl/,
  });
}

async function stop(served: ServerChild | undefined): Promise<number | null | undefined> {
  return served ? (await served.stop()).code : undefined;
}

/**
 * A request on a connection of its own (closed after the answer): a worker killed while it held a kept-alive
 * connection would fail the next request sent on it, which says nothing of the server. Fails after 10 s.
 */
function call(url: string, path: string, token: string, body?: unknown, timeoutMs = 10_000) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const req = request(`${url}${path}`, {
      method: payload === undefined ? "GET" : "POST",
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
      },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
      );
    });
    req.on("error", reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer to ${path} within ${timeoutMs} ms`)));
    req.end(payload);
  });
}

/** A new token (every scope of its issuer's) through `url`: its secret. */
async function newToken(url: string, admin: string): Promise<string> {
  const issued = await call(url, "/auth-tokens.create", admin, {});
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  return issued.body.access_token as string;
}

/** The pids of the processes whose parent is `pid`. */
function childPids(pid: number): number[] {
  try {
    const out = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).trim();
    return out.split(/\s+/).map(Number);
  } catch (error) {
    // ps exits 1 when it lists nothing.
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!both)("two server processes on one PostgreSQL database and one Redis", () => {
  const prefix = `workapi-scale-test-${randomBytes(4).toString("hex")}:`;
  let shared: TemporaryStorage | undefined;
  let env: Record<string, string | undefined>;
  let a: ServerChild | undefined;
  let b: ServerChild | undefined;
  let token: string;

  beforeAll(async () => {
    shared = await temporaryStorage("postgres", { prefix: "workapi_scale" });
    env = { DATABASE_URL: shared.databaseUrl, REDIS_URL, WORKAPI_REDIS_PREFIX: prefix };
    a = await serve(["--data-dir", shared.dataDir, "--rate-limit", String(LIMIT)], env);
    b = await serve(["--data-dir", tempDir(), "--rate-limit", String(LIMIT)], env);
    token = readFileSync(join(shared.dataDir, "admin-token"), "utf8").trim();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
    await shared?.remove();
  });

  it("refuses through one a token revoked through the other, at once", async () => {
    const { url: first } = a as ServerChild;
    const { url: second } = b as ServerChild;
    const secret = await newToken(first, token);
    expect((await call(second, "/tags.list", secret)).status).toBe(200);
    const listed = await call(first, "/auth-tokens.list", secret);
    const own = (listed.body.tokens as Array<{ id: string; token_hint: string }>).find((t) =>
      secret.endsWith(t.token_hint),
    );
    expect((await call(first, "/auth-tokens.delete", token, { token_id: own?.id })).status).toBe(200);
    const refused = await call(second, "/tags.list", secret);
    expect(refused.status).toBe(401);
    expect(refused.body.type).toBe("token_revoked");
  });

  it("reads through one the records made through the other", async () => {
    const created = await call((a as ServerChild).url, "/tags.create", token, { name: "made-on-a" });
    expect(created.status).toBe(201);
    const id = (created.body.tag as { id: string }).id;
    const read = await call((b as ServerChild).url, "/tags.list?limit=100", token);
    expect(read.status).toBe(200);
    expect((read.body.tags as Array<{ id: string }>).find((tag) => tag.id === id)).toEqual(created.body.tag);
  });

  it("counts a token's rate limit across both", async () => {
    const secret = await newToken((a as ServerChild).url, token);
    for (let i = 0; i < LIMIT; i++) {
      const through = i % 2 === 0 ? (a as ServerChild) : (b as ServerChild);
      expect((await call(through.url, "/tags.list", secret)).status, `request ${i + 1}`).toBe(200);
    }
    // Each process saw half the limit: only a count shared through Redis refuses the next one.
    for (const through of [a, b] as ServerChild[]) {
      const refused = await call(through.url, "/tags.list", secret);
      expect(refused.status).toBe(429);
      expect(refused.body.type).toBe("too_many_requests");
    }
  });

  it("serves with --workers 2, replaces a killed worker, and drains every worker on SIGTERM", async () => {
    const workers = await serve(
      ["--data-dir", tempDir(), "--workers", "2", "--rate-limit", "100000", "--log-level", "info"],
      env,
    );
    // A token of its own: this server's limit is not the one of the processes before.
    const own = await newToken(workers.url, token);
    try {
      const pids = childPids(workers.child.pid as number);
      expect(pids).toHaveLength(2);
      expect(workers.output()).toContain(`workers:  2 (pids ${pids.join(", ")})`);
      // No first start: the organization was made by the processes before.
      expect(workers.output()).not.toContain("First start");
      const created = await call(workers.url, "/tags.create", own, { name: "made-by-workers" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = (created.body.tag as { id: string }).id;
      const read = await call((a as ServerChild).url, "/tags.list?limit=100", token);
      expect((read.body.tags as Array<{ id: string }>).map((tag) => tag.id)).toContain(id);

      process.kill(pids[0] as number, "SIGKILL");
      // The primary hands each new connection to a worker; one handed to the killed worker as it died is lost
      // with it (node:cluster does not hand it on), as behind a load balancer: its caller waits in vain.
      // Once the primary has seen the death, every request is served by the other worker meanwhile.
      const deadline = Date.now() + 20_000;
      while (!workers.output().includes("the new worker listens") && Date.now() < deadline) {
        const seenDead = workers.output().includes("a worker died");
        const answer = await call(workers.url, "/tags.list", own, undefined, 2_000).catch((error: Error) => ({
          status: error.message,
          body: {},
        }));
        if (seenDead) expect(answer.status).toBe(200);
        await sleep(100);
      }
      expect(workers.output()).toContain("a worker died; starting another");
      const now = childPids(workers.child.pid as number);
      expect(now).toHaveLength(2);
      expect(now).not.toContain(pids[0]);
      expect(now).toContain(pids[1]);
      for (let i = 0; i < 4; i++) expect((await call(workers.url, "/tags.list", own)).status).toBe(200);
      expect(await stop(workers)).toBe(0);
      for (const pid of now) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await stop(workers);
    }
  }, 60_000);
});

describe("--workers on SQLite", () => {
  it("is refused without Redis, with the reason", async () => {
    const started = serve(["--data-dir", tempDir(), "--workers", "2"], { DATABASE_URL: "", REDIS_URL: "" });
    await expect(started).rejects.toThrow(/exited with 1[\s\S]*--workers 2 needs Redis/);
  });

  it.skipIf(!REDIS_URL)(
    "serves writes and reads from two workers on one data directory",
    async () => {
      const dataDir = tempDir();
      const prefix = `workapi-scale-test-${randomBytes(4).toString("hex")}:`;
      const workers = await serve(["--data-dir", dataDir, "--workers", "2"], {
        DATABASE_URL: "",
        REDIS_URL,
        WORKAPI_REDIS_PREFIX: prefix,
      });
      try {
        // One first start, made by the primary before the workers opened the file.
        expect(workers.output().match(/First start/g)).toHaveLength(1);
        const token = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
        // Each fetch below may be served by either worker; every record written is read back.
        const made = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            call(workers.url, "/tags.create", token, { name: `tag-${i}` }),
          ),
        );
        expect(made.map((answer) => answer.status)).toEqual(Array(20).fill(201));
        const listed = await call(workers.url, "/tags.list?limit=50", token);
        expect((listed.body.tags as unknown[]).length).toBe(20);
        expect(await stop(workers)).toBe(0);
      } finally {
        await stop(workers);
      }
    },
    60_000,
  );
});
