// Group commit on a SQLite file (src/store/sqlite-split.ts): transactions that queue for the write connection
// share one COMMIT, and, told how many writes are in flight, a group of half of them commits while the rest
// wait. Checked at the dialect, on a file of its own, by the COMMITs the write connection runs.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import Database from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type CachedDatabase, SplitSqliteDialect, withStatementCache } from "../../src/store/sqlite-split.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A Kysely on a new file through the split dialect, counting the COMMITs its write connection runs. */
function openCounted(inFlight?: () => number) {
  const dir = mkdtempSync(join(tmpdir(), "workapi-group-"));
  dirs.push(dir);
  const file = join(dir, "test.sqlite");
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.exec("create table items (n integer not null)");
  const cached = withStatementCache(sqlite);
  const commits: number[] = [];
  const writer: CachedDatabase = {
    close: () => cached.close(),
    prepare(text) {
      if (text === "commit")
        commits.push(sqlite.prepare("select count(*) from items").pluck().get() as number);
      return cached.prepare(text);
    },
  };
  const reader = withStatementCache(new Database(file, { readonly: true }));
  const db = new Kysely<{ items: { n: number } }>({
    dialect: new SplitSqliteDialect(writer, reader, () => sqlite.inTransaction, undefined, inFlight),
  });
  return { db, commits };
}

/** `count` transactions begun together, each inserting its number; resolves with what each saw committed. */
function concurrentInserts(db: Kysely<{ items: { n: number } }>, count: number) {
  return Promise.all(
    Array.from({ length: count }, (_, n) =>
      db
        .transaction()
        .execute((tx) => tx.insertInto("items").values({ n }).execute())
        .then(async () =>
          Number((await sql<{ c: number }>`select count(*) as c from items`.execute(db)).rows[0]?.c),
        ),
    ),
  );
}

describe("group commit", () => {
  it("commits transactions that queue together once, and each returns after that commit", async () => {
    const { db, commits } = openCounted();
    try {
      const seen = await concurrentInserts(db, 12);
      expect(commits).toEqual([12]);
      // Read after its own return on the read connection: every one sees all twelve committed.
      expect(seen).toEqual(Array(12).fill(12));
    } finally {
      await db.destroy();
    }
  });

  it("commits half of the writes in flight while the other half waits", async () => {
    const { db, commits } = openCounted(() => 12);
    try {
      const seen = await concurrentInserts(db, 12);
      expect(commits).toEqual([6, 12]);
      expect(Math.min(...seen)).toBeGreaterThanOrEqual(6);
      expect(
        await db
          .selectFrom("items")
          .select((eb) => eb.fn.countAll<number>().as("c"))
          .executeTakeFirst(),
      ).toEqual({
        c: 12,
      });
    } finally {
      await db.destroy();
    }
  });

  it("splits writes taken in one at a time, as the write thread takes its messages", async () => {
    const { db, commits } = openCounted(() => 12);
    const { port1, port2 } = new MessageChannel();
    try {
      // Each message's handler runs until it awaits the commit before the next message is taken, so no
      // transaction is ever waiting for the write connection: only the count in flight shows the others.
      const runs: Array<Promise<unknown>> = [];
      const taken = new Promise<void>((resolve) => {
        port2.on("message", (n: number) => {
          runs.push(db.transaction().execute((tx) => tx.insertInto("items").values({ n }).execute()));
          if (runs.length === 12) resolve();
        });
      });
      for (let n = 0; n < 12; n++) port1.postMessage(n);
      await taken;
      await Promise.all(runs);
      expect(commits).toEqual([6, 12]);
    } finally {
      port1.close();
      await db.destroy();
    }
  });

  it("keeps one group when too few writes are in flight to make two of four", async () => {
    const { db, commits } = openCounted(() => 7);
    try {
      await concurrentInserts(db, 7);
      expect(commits).toEqual([7]);
    } finally {
      await db.destroy();
    }
  });
});
