// Durability under a crash: the real server runs as a child process, concurrent writers create tags and work
// items, the process is killed with SIGKILL in the middle of the load, and after a restart on the same data
// directory (SQLite) or database (PostgreSQL) every write that had been acknowledged with a 2xx is there.
import { afterAll, describe, expect, it } from "vitest";
import { databases } from "./harness.js";
import { temporaryStorage } from "./support/databases.mjs";
import { postJson as post, runCli, startServer } from "./support/servers.mjs";

const WRITERS = 20;
const KILL_AFTER_ACKS = 600;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** An empty place for the server's data: a temporary directory, or a PostgreSQL database of its own. */
async function freshStorage(database: "sqlite" | "postgres"): Promise<Record<string, string>> {
  const storage = await temporaryStorage(database, { prefix: "crash" });
  cleanups.push(() => storage.remove());
  return storage.env;
}

/** The built server on `env`'s storage, its errors and warnings collected with its stdout. */
function serve(env: Record<string, string>) {
  return startServer({ env: { ...env, WORKAPI_RATE_LIMIT_MAX: "1000000000" }, timeoutMs: 30_000 });
}

describe.each(databases)("a kill -9 under concurrent writes on %s", (database) => {
  it("loses no acknowledged write", async () => {
    const env = await freshStorage(database);
    const scopes = "tag:all,product:all,issue:all,dev_user:read";
    const created = await runCli(["token", "create", "--scopes", scopes], env);
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
    await first.stop("SIGKILL");
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
      await second.stop();
    }
  }, 120_000);
});
