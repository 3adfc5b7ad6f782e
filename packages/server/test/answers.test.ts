// The answers of reads kept on a SQLite file and on PostgreSQL (src/core/answers.ts): a repeated read is
// answered without reading the store (on PostgreSQL, with the one statement that reads the change counts),
// and every change is seen by the very next request: a write through the server (on SQLite, on its write
// thread), a write by another store on the same database (as another process or `workapi-server seed`
// would), a change made in SQL by hand, a revoked token, a changed scope, an expired token and a token of
// other scopes.
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AnswerCache } from "../src/core/answers.js";
import { hashToken } from "../src/core/auth.js";
import { JsonText } from "../src/core/json-text.js";
import { DatabaseChanges, FileChanges } from "../src/store/changes.js";
import { CredentialsCache } from "../src/store/credentials.js";
import { openStore } from "../src/store/open.js";
import type { Credentials, Store } from "../src/store/types.js";
import { createTag } from "./fixtures.js";
import { databases, startTestServer, type TestServer } from "./harness.js";
import { createPart, ok } from "./record-builders.js";

/**
 * Runs `text` on the server's database by hand, as an operator would, outside the server's store: `?` marks
 * each parameter.
 */
async function bySql(server: TestServer, text: string, parameters: unknown[]): Promise<void> {
  const { dataDir, databaseUrl, postgresSchema } = server.storeOptions;
  if (!databaseUrl) {
    const file = new Database(`${dataDir}/workapi.sqlite`);
    try {
      file.prepare(text).run(...parameters);
    } finally {
      file.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`set search_path to "${postgresSchema}"`);
    let n = 0;
    await client.query(
      text.replace(/\?/g, () => `$${++n}`),
      parameters,
    );
  } finally {
    await client.end();
  }
}

describe.each(databases)("kept answers of reads on %s", (database) => {
  let server: TestServer;
  let work: { id: string; title: string };
  /** The statements the server's store ran (Kysely's log). */
  let statements: string[];
  const get = (token?: string) =>
    server.call("GET", `/works.get?id=${encodeURIComponent(work.id)}`, token ? { token } : {});

  beforeEach(async () => {
    statements = [];
    server = await startTestServer(database, {
      log: (event) => {
        if (event.level === "query") statements.push(event.query.sql);
      },
    });
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
    const credentials = vi.spyOn(server.store, "findCredentials");
    statements.length = 0;
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(reads).not.toHaveBeenCalled();
    // The credentials are kept too: no lookup of the token. On PostgreSQL the request's one statement reads
    // the change counts; a SQLite file's are read outside the query log, and only when the file changed.
    expect(credentials.mock.results.length).toBe(1);
    expect(statements).toEqual(
      database === "postgres" ? [expect.stringContaining("credential_changes")] : [],
    );
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

  it("keeps a read of one work while others are created, and sees its update and delete at once", async () => {
    await get();
    const reads = recordReads();
    const part = await createPart(server, "product", "Elsewhere");
    for (const title of ["Other 1", "Other 2"]) {
      await ok(server, "/works.create", {
        type: "issue",
        title,
        applies_to_part: part.id,
        owned_by: [server.admin.id],
      });
    }
    expect((await get()).body.work.title).toBe("Before");
    expect(reads).not.toHaveBeenCalled();
    await ok(server, "/works.update", { id: work.id, title: "Renamed" });
    expect((await get()).body.work.title).toBe("Renamed");
    expect(reads).toHaveBeenCalledTimes(1);
    await ok(server, "/works.delete", { id: work.id });
    expect((await get()).status).toBe(404);
  });

  it("reads again after a create a work it found by display id, and sees a delete by hand", async () => {
    const byDisplayId = async (id: string) => server.call("GET", `/works.get?id=${encodeURIComponent(id)}`);
    const displayId = (await get()).body.work.display_id as string;
    expect((await byDisplayId(displayId)).body.work.id).toBe(work.id);
    const reads = recordReads();
    const part = await createPart(server, "product", "Elsewhere");
    await ok(server, "/works.create", {
      type: "issue",
      title: "Other",
      applies_to_part: part.id,
      owned_by: [server.admin.id],
    });
    expect((await byDisplayId(displayId)).body.work.id).toBe(work.id);
    expect(reads).toHaveBeenCalledTimes(1);
    // Its answer by id, kept through the create, counted deletes: one by hand in SQL is seen at once.
    await bySql(server, "delete from records where id = ?", [work.id]);
    expect((await get()).status).toBe(404);
  });

  it.runIf(database === "postgres")("sees a TRUNCATE of the records on the very next read", async () => {
    // Only inserts so far: no family has a count of updates and deletes yet; the TRUNCATE's trigger makes them.
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    await bySql(server, "truncate records", []);
    expect((await get()).status).toBe(404);
  });

  it("reads the store once for requests that miss together, and each sees the change", async () => {
    await get();
    await ok(server, "/works.update", { id: work.id, title: "Together" });
    const reads = recordReads();
    const answers = await Promise.all(Array.from({ length: 6 }, () => get()));
    expect(answers.map((answer) => answer.body.work.title)).toEqual(Array(6).fill("Together"));
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it("sees a write by another store on the same database on the very next read", async () => {
    expect((await get()).body.work.title).toBe("Before");
    expect((await get()).body.work.title).toBe("Before");
    const other: Store = await openStore(server.storeOptions);
    try {
      await other.updateRecord<{ title: string }>(server.actor, "work", work.id, ({ data }) => ({
        data: { ...data, title: "Elsewhere" },
        label: "Elsewhere",
      }));
      expect((await get()).body.work.title).toBe("Elsewhere");
    } finally {
      await other.close();
    }
    // By hand in SQL: the triggers count it all the same.
    const setTitle =
      database === "postgres"
        ? "update records set data = jsonb_set(data, '{title}', to_jsonb(?::text)) where id = ?"
        : "update records set data = json_set(data, '$.title', ?) where id = ?";
    await bySql(server, setTitle, ["By hand", work.id]);
    expect((await get()).body.work.title).toBe("By hand");
  });

  it("refuses a token revoked, expired or of changed scopes on its very next request", async () => {
    const reader = await server.token(["issue:read"]);
    expect((await get(reader)).status).toBe(200);
    expect((await get(reader)).status).toBe(200);
    // Another token without the scope of issues is not given the kept answer.
    const taskReader = await server.token(["task:read"]);
    expect((await get(taskReader)).body.type).toBe("forbidden");
    // The token's scopes changed in the database (by another connection): the next request is refused.
    await bySql(server, "update tokens set scopes = ? where hash = ?", [
      JSON.stringify(["task:read"]),
      hashToken(reader),
    ]);
    expect((await get(reader)).body.type).toBe("forbidden");
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

describe("the answer cache", () => {
  /** Changes of a file whose version is `version()` and whose `tag` family counts `tags()`. */
  const changesOf = (version: () => number, tags: () => number = () => 0) =>
    new FileChanges(
      version,
      () => 0,
      (kind) => (kind === "tag" ? tags() : 0),
    );
  const store = { listRecordJson: async () => ({ items: [] }) } as unknown as Store;
  const answer = (text: string) => async (reading: Store) => {
    await reading.listRecordJson("org", "tag", { limit: 1 });
    return new JsonText(text);
  };

  it("reads a family's count on a SQLite file only when asked for, once per version of the file", () => {
    let version = 1;
    const reads: string[] = [];
    const changes = new FileChanges(
      () => version,
      () => 0,
      (kind) => {
        reads.push(kind);
        return reads.length;
      },
    );
    const first = changes.now();
    expect(reads).toEqual([]);
    expect([first.family("tag"), changes.now().family("tag"), first.family("tag")]).toEqual([1, 1, 1]);
    expect(reads).toEqual(["tag"]);
    version = 2;
    expect(changes.now().family("tag")).toBe(2);
    expect(reads).toEqual(["tag", "tag"]);
  });

  it("keeps at most its bytes, the oldest answers going first, and no answer over a sixteenth", async () => {
    const changes = changesOf(() => 1);
    const cache = new AnswerCache(changes, 1600);
    for (let i = 0; i < 40; i++)
      await cache.through(`key ${i}`, store, answer("x".repeat(50)), changes.now());
    const kept = Array.from({ length: 40 }, (_, i) => cache.get(`key ${i}`, changes.now()) !== undefined);
    const count = kept.filter(Boolean).length;
    expect(count).toBeGreaterThan(20);
    expect(count).toBeLessThanOrEqual(Math.floor(1600 / 55));
    expect(kept.slice(-count).every(Boolean)).toBe(true);
    await cache.through("large", store, answer("x".repeat(101)), changes.now());
    expect(cache.get("large", changes.now())).toBeUndefined();
  });

  it("keeps nothing read while a commit happened, and drops an answer once its family moved", async () => {
    let version = 1;
    let tags = 0;
    const movingChanges = changesOf(() => version++);
    const moving = new AnswerCache(movingChanges, 1 << 20);
    await moving.through("during", store, answer("{}"), movingChanges.now());
    expect(moving.get("during", movingChanges.now())).toBeUndefined();

    const changes = changesOf(
      () => version,
      () => tags,
    );
    const cache = new AnswerCache(changes, 1 << 20);
    await cache.through("tags", store, answer("{}"), changes.now());
    expect(cache.get("tags", changes.now())?.text).toBe("{}");
    version++;
    expect(cache.get("tags", changes.now())?.text).toBe("{}");
    tags++;
    version++;
    expect(cache.get("tags", changes.now())).toBeUndefined();
  });

  it("keeps an answer under the counts read before it, and drops it once they moved (PostgreSQL)", async () => {
    let tags = 0;
    const changes = new DatabaseChanges(async () => ({ credentials: 0, families: new Map([["tag", tags]]) }));
    const cache = new AnswerCache(changes, 1 << 20);
    const before = await changes.now();
    // A tag committed while the answer was read: kept under the count read before, it is not answered once
    // the count is read again.
    await cache.through(
      "tags",
      store,
      async (reading) => {
        const made = await answer("{}")(reading);
        tags++;
        return made;
      },
      before,
    );
    expect(cache.get("tags", before)?.text).toBe("{}");
    expect(cache.get("tags", await changes.now())).toBeUndefined();
    await cache.through("tags", store, answer("[]"), await changes.now());
    expect(cache.get("tags", await changes.now())?.text).toBe("[]");
  });

  it("has a request that misses while its key is read wait for that read, and take it only when current", async () => {
    let tags = 0;
    const changes = new DatabaseChanges(async () => ({ credentials: 0, families: new Map([["tag", tags]]) }));
    const cache = new AnswerCache(changes, 1 << 20);
    let reads = 0;
    let release: () => void = () => {};
    const slow = (text: string) => async (reading: Store) => {
      reads++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return answer(text)(reading);
    };
    expect(await cache.shared("tags", await changes.now())).toBeUndefined();

    // Counts unchanged since the running read's: its answer serves the waiter, and the store is read once.
    const first = cache.through("tags", store, slow("one"), await changes.now());
    const waiting = cache.shared("tags", await changes.now());
    release();
    expect((await waiting)?.text).toBe("one");
    expect((await first) as JsonText).toBeInstanceOf(JsonText);
    expect(reads).toBe(1);

    // A tag committed after the running read's counts were read: the waiter, whose counts are newer, reads
    // for itself; so does a waiter of a read that failed.
    tags++;
    const second = cache.through("tags", store, slow("two"), await changes.now());
    tags++;
    const newer = cache.shared("tags", await changes.now());
    release();
    expect(await newer).toBeUndefined();
    await second;
    const failing = cache.through(
      "tags",
      store,
      async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        throw new Error("lost");
      },
      await changes.now(),
    );
    const ofFailed = cache.shared("tags", await changes.now());
    release();
    expect(await ofFailed).toBeUndefined();
    await expect(failing).rejects.toThrow("lost");
  });

  it("keeps nothing whose reads no count covers", async () => {
    const changes = changesOf(() => 1);
    const cache = new AnswerCache(changes, 1 << 20);
    const anyKind = { getRecordJson: async () => undefined } as unknown as Store;
    await cache.through(
      "any kind",
      anyKind,
      async (reading) => {
        await reading.getRecordJson("org", [], "ISS-1");
        return new JsonText("{}");
      },
      changes.now(),
    );
    expect(cache.get("any kind", changes.now())).toBeUndefined();
  });
});

describe("the change counts read from PostgreSQL", () => {
  /** A source whose reads are answered by hand: `sent` holds each read's answer, in the order sent. */
  const source = (maxInFlight?: number) => {
    const sent: Array<(credentials: number) => void> = [];
    const changes = new DatabaseChanges(
      () =>
        new Promise((resolve) => {
          sent.push((credentials) => resolve({ credentials, families: new Map() }));
        }),
      maxInFlight,
    );
    return { sent, changes };
  };

  /** After the end of this turn of the event loop, when the reads it asked for are sent. */
  const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

  it("answers each request with a read begun after it asked: one per turn, two on their way at most", async () => {
    const { sent, changes } = source(2);
    // Asked in one turn: one read, sent at its end.
    const first = changes.now();
    const second = changes.now();
    expect(sent).toHaveLength(0);
    await turnEnds();
    expect(sent).toHaveLength(1);
    // Asked once that read is on its way (it may have begun before them): a read of their own, at once.
    const third = changes.now();
    await turnEnds();
    expect(sent).toHaveLength(2);
    // Two on their way: the next turn's requests wait for one of them to be answered.
    const fourth = changes.now();
    const fifth = changes.now();
    await turnEnds();
    expect(sent).toHaveLength(2);
    sent[0]?.(1);
    expect([(await first).credentials, (await second).credentials]).toEqual([1, 1]);
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    sent[1]?.(2);
    expect((await third).credentials).toBe(2);
    sent[2]?.(3);
    expect([(await fourth).credentials, (await fifth).credentials]).toEqual([3, 3]);
    // Nothing on its way: the next request's read goes at the end of its turn.
    const sixth = changes.now();
    await turnEnds();
    expect(sent).toHaveLength(4);
    sent[3]?.(4);
    expect((await sixth).credentials).toBe(4);
  });

  it("by default one read on its way at most: a request that asks meanwhile waits for the next", async () => {
    const { sent, changes } = source();
    const first = changes.now();
    await turnEnds();
    const second = changes.now();
    await turnEnds();
    expect(sent).toHaveLength(1);
    sent[0]?.(1);
    expect((await first).credentials).toBe(1);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]?.(2);
    expect((await second).credentials).toBe(2);
  });

  it("fails the requests of a read that failed, and sends the next one all the same", async () => {
    const sent: Array<(error?: Error) => void> = [];
    const changes = new DatabaseChanges(
      () =>
        new Promise((resolve, reject) => {
          sent.push((error) => (error ? reject(error) : resolve({ credentials: 7, families: new Map() })));
        }),
    );
    const first = changes.now();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const second = changes.now();
    sent[0]?.(new Error("connection lost"));
    await expect(first).rejects.toThrow("connection lost");
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]?.();
    expect((await second).credentials).toBe(7);
  });
});

describe("the credentials cache", () => {
  it("keeps nothing read under a count the cache has moved past meanwhile", async () => {
    let credentials = 1;
    const changes = new DatabaseChanges(async () => ({ credentials, families: new Map() }));
    const cache = new CredentialsCache(changes);
    const token = (status: string) => ({ token: { status } }) as unknown as Credentials;
    // A request read the count 1, and reads the credentials slowly: they may predate a revocation.
    const atOne = await changes.now();
    let finishSlow: (value: Credentials) => void = () => {};
    const slow = cache.through("hash", () => new Promise((resolve) => (finishSlow = resolve)), atOne);
    // The token is revoked (count 2); a later request reads the revoked token.
    credentials = 2;
    const atTwo = await changes.now();
    expect((await cache.through("hash", async () => token("revoked"), atTwo))?.token.status).toBe("revoked");
    // The slow read ends with what it read before the revocation: not kept under count 2.
    finishSlow(token("active"));
    expect((await slow)?.token.status).toBe("active");
    const unread = async () => {
      throw new Error("read again");
    };
    expect((await cache.through("hash", unread, atTwo))?.token.status).toBe("revoked");
  });
});
