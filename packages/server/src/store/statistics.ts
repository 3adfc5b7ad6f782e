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
}
