// The query planner's statistics. Without them SQLite guesses how many rows each index narrows a query to,
// and on a big table it guessed wrong: a timeline of one record was read through the created-date index
// (every entry of the organization, in date order) instead of the parent index, 155-250 ms a page at
// 131,000 entries. `PRAGMA optimize` runs ANALYZE on the tables whose statistics are missing or stale (it
// looks at a bounded sample, so it takes milliseconds) and does nothing when they are current; SQLite's
// documentation asks for it once at start and then every few hours on a long-lived connection. PostgreSQL's
// autovacuum keeps its statistics by itself when it runs; an ANALYZE here brings them up to date sooner (after
// a bulk load, before autovacuum has come round) or at all (with autovacuum off, a freshly seeded database had
// none, and a work read by id went through the (org_id, kind, ...) index, every work of the organization,
// instead of the unique index on id: 1.4 ms against 0.07 ms for 1,000 works).
import { type Kysely, sql } from "kysely";
import { type DialectName, dropSamples } from "./migrations.js";
import type { DB } from "./tables.js";

/** The tables the requests' queries read, whose statistics the planner plans them with. */
const TABLES = ["records", "tokens", "orgs", "dev_users", "counters"] as const;

/** Brings the planner's statistics up to date where they are missing or stale. */
export async function updateStatistics(db: Kysely<DB>, dialect: DialectName): Promise<void> {
  if (dialect === "sqlite") {
    const analyze = async (tx: Kysely<DB>) => {
      // 0x10002: also look at tables that were never analyzed (a database made before statistics were kept).
      await sql`pragma optimize = 0x10002`.execute(tx);
      await dropSamples(tx);
    };
    await (db.isTransaction ? analyze(db) : db.transaction().execute(analyze));
    return;
  }
  for (const table of TABLES) await sql`analyze ${sql.table(table)}`.execute(db);
  for (const table of COUNT_TABLES) await compactCounts(db, table);
}

/**
 * The change counts (./changes.ts): a few dozen rows that every write updates, read by every kept read on
 * PostgreSQL. Each update leaves the row's old version behind; PostgreSQL prunes them page by page, but only
 * a VACUUM gives the file's emptied pages back, and only from its end. Where autovacuum is off (as on this
 * project's test machines) or behind, a bulk load (seed --works 10000) left kept_record_changes at 202 pages
 * for 21 rows, and the counts statement, which reads it whole, took 77 µs a round trip against 42 µs on one
 * page (pgbench). When a table has grown past COUNTS_BYTES it is rewritten (VACUUM FULL, a few rows: well
 * under a millisecond), but not waited for long: its lock holds every read of the counts behind it, so it
 * gives up after 10 ms when a write holds the table (it is tried again next time).
 */
const COUNT_TABLES = ["credential_changes", "kept_record_changes"] as const;
const COUNTS_BYTES = 64 * 1024;

async function compactCounts(db: Kysely<DB>, table: (typeof COUNT_TABLES)[number]): Promise<void> {
  const size = await sql<{ bytes: string }>`select pg_relation_size(${table})::text as bytes`.execute(db);
  if (Number(size.rows[0]?.bytes ?? 0) <= COUNTS_BYTES) return;
  // One connection for the setting and the rewrite (VACUUM runs outside a transaction).
  await db.connection().execute(async (connection) => {
    await sql`set lock_timeout = '10ms'`.execute(connection);
    try {
      await sql`vacuum full ${sql.table(table)}`.execute(connection);
    } catch (error) {
      // 55P03 lock_not_available: a write held the table; the next round tries again.
      if ((error as { code?: string }).code !== "55P03") throw error;
    } finally {
      await sql`reset lock_timeout`.execute(connection);
    }
  });
}
