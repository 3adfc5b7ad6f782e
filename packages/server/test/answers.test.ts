// The answers of reads kept on a SQLite file (src/core/answers.ts): a repeated read is answered without
// reading the store, and every change is seen by the very next request: a write through the server (on its
// write thread), a write by another store on the same file (as another process or `workapi-server seed`
// would), a revoked token, a changed scope, an expired token and a token of other scopes.
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AnswerCache } from "../src/core/answers.js";
import { hashToken } from "../src/core/auth.js";
import { JsonText } from "../src/core/json-text.js";
import { Changes } from "../src/store/changes.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/types.js";
import { createTag } from "./fixtures.js";
import { startTestServer, type TestServer } from "./harness.js";
import { createPart, ok } from "./record-builders.js";

describe("kept answers of reads on a SQLite file", () => {
  let server: TestServer;
  let work: { id: string; title: string };
  const get = (token?: string) =>
    server.call("GET", `/works.get?id=${encodeURIComponent(work.id)}`, token ? { token } : {});

  beforeEach(async () => {
    server = await startTestServer("sqlite");
    const part = await createPart(server, "product", "Kept");
    const body = await ok(server, "/works.create", {
      type: "issue",
      title: "Before",
      applies_to_part: part.id,
      owned_by: [server.admin.id],
    });
    work = body.work;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  /** Counts the store's reads of a record by id from now on. */
  const recordReads = () => vi.spyOn(server.store, "getRecordJson");

  it("answers a repeated read without reading the store, with the same bytes", async () => {
    const first = await get();
    const reads = recordReads();
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(reads).not.toHaveBeenCalled();
  });

  it("sees a write through the server on the very next read", async () => {
    expect((await get()).body.work.title).toBe("Before");
    await ok(server, "/works.update", { id: work.id, title: "After" });
    expect((await get()).body.work.title).toBe("After");
    const tags = async () =>
      (await server.call("GET", "/tags.list")).body.tags.map((t: { name: string }) => t.name);
    expect(await tags()).toEqual([]);
    await createTag(server.store, server.actor, "fresh");
    expect(await tags()).toEqual(["fresh"]);
  });

  it("keeps a read while other families change, and reads again when its own does", async () => {
    await get();
    const reads = recordReads();
    await createTag(server.store, server.actor, "elsewhere");
    await get();
    expect(reads).not.toHaveBeenCalled();
    await ok(server, "/works.update", { id: work.id, title: "Moved" });
    expect((await get()).body.work.title).toBe("Moved");
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it("sees a write by another store on the same file on the very next read", async () => {
    expect((await get()).body.work.title).toBe("Before");
    const other: Store = await openStore({ dataDir: dataDirOf(server) });
    try {
      await other.updateRecord<{ title: string }>(server.actor, "work", work.id, ({ data }) => ({
        data: { ...data, title: "Elsewhere" },
        label: "Elsewhere",
      }));
      expect((await get()).body.work.title).toBe("Elsewhere");
    } finally {
      await other.close();
    }
  });

  it("refuses a token revoked, expired or of changed scopes on its very next request", async () => {
    const reader = await server.token(["issue:read"]);
    expect((await get(reader)).status).toBe(200);
    expect((await get(reader)).status).toBe(200);
    // Another token without the scope of issues is not given the kept answer.
    const taskReader = await server.token(["task:read"]);
    expect((await get(taskReader)).body.type).toBe("forbidden");
    // The token's scopes changed in the file (by another connection): the next request is refused.
    const file = new Database(`${dataDirOf(server)}/workapi.sqlite`);
    try {
      file
        .prepare("update tokens set scopes = ? where hash = ?")
        .run(JSON.stringify(["task:read"]), hashToken(reader));
      expect((await get(reader)).body.type).toBe("forbidden");
    } finally {
      file.close();
    }
    const token = (await server.store.findCredentials(hashToken(reader)))?.token;
    await server.store.revokeToken(server.actor, token?.id as string);
    const revoked = await get(reader);
    expect([revoked.status, revoked.body.type]).toEqual([401, "token_revoked"]);

    const brief = await server.token(["issue:read"], { expiresIn: 1 });
    expect((await get(brief)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await get(brief);
    expect([expired.status, expired.body.type]).toEqual([401, "token_expired"]);
  });
});

describe("kept answers turned off", () => {
  it("reads the store on every request with WORKAPI_ANSWER_CACHE_MB=0", async () => {
    const server = await startTestServer("sqlite", { answerCacheMb: 0 });
    try {
      const tag = await createTag(server.store, server.actor, "plain");
      const reads = vi.spyOn(server.store, "listRecordJson");
      for (let i = 0; i < 3; i++) {
        expect((await server.call("GET", "/tags.list")).body.tags[0].id).toBe(tag.id);
      }
      expect(reads).toHaveBeenCalledTimes(3);
    } finally {
      vi.restoreAllMocks();
      await server.close();
    }
  });
});

/** The data directory of a test server on a SQLite file. */
function dataDirOf(server: TestServer): string {
  if (!server.dataDir) throw new Error("not a server on a SQLite file");
  return server.dataDir;
}

describe("the answer cache", () => {
  /** Changes of a file whose version is `version()` and whose `tag` family counts `tags()`. */
  const changesOf = (version: () => number, tags: () => number = () => 0) =>
    new Changes(version, () => ({ credentials: 0, families: new Map([["tag", tags()]]) }));
  const store = { listRecordJson: async () => ({ items: [] }) } as unknown as Store;
  const answer = (text: string) => async (reading: Store) => {
    await reading.listRecordJson("org", "tag", { limit: 1 });
    return new JsonText(text);
  };

  it("keeps at most its bytes, the oldest answers going first, and no answer over a sixteenth", async () => {
    const cache = new AnswerCache(
      changesOf(() => 1),
      1600,
    );
    for (let i = 0; i < 40; i++) await cache.through(`key ${i}`, store, answer("x".repeat(50)));
    const kept = Array.from({ length: 40 }, (_, i) => cache.get(`key ${i}`) !== undefined);
    const count = kept.filter(Boolean).length;
    expect(count).toBeGreaterThan(20);
    expect(count).toBeLessThanOrEqual(Math.floor(1600 / 55));
    expect(kept.slice(-count).every(Boolean)).toBe(true);
    await cache.through("large", store, answer("x".repeat(101)));
    expect(cache.get("large")).toBeUndefined();
  });

  it("keeps nothing read while a commit happened, and drops an answer once its family moved", async () => {
    let version = 1;
    let tags = 0;
    const moving = new AnswerCache(
      changesOf(() => version++),
      1 << 20,
    );
    await moving.through("during", store, answer("{}"));
    expect(moving.get("during")).toBeUndefined();

    const cache = new AnswerCache(
      changesOf(
        () => version,
        () => tags,
      ),
      1 << 20,
    );
    await cache.through("tags", store, answer("{}"));
    expect(cache.get("tags")?.text).toBe("{}");
    version++;
    expect(cache.get("tags")?.text).toBe("{}");
    tags++;
    version++;
    expect(cache.get("tags")).toBeUndefined();
  });

  it("keeps nothing whose reads no count covers", async () => {
    const cache = new AnswerCache(
      changesOf(() => 1),
      1 << 20,
    );
    const anyKind = { getRecordJson: async () => undefined } as unknown as Store;
    await cache.through("any kind", anyKind, async (reading) => {
      await reading.getRecordJson("org", [], "ISS-1");
      return new JsonText("{}");
    });
    expect(cache.get("any kind")).toBeUndefined();
  });
});
