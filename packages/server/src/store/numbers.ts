// On PostgreSQL, the numbers of display ids (ISS-41, TAG-7...) are taken outside the transaction that uses
// them. A counter's row taken inside it stays locked until that transaction commits, so every create of the
// same kind in one organization ran one after another, each holding the row across its remaining statements
// and its commit: ten callers creating work items in one organization spent most of their time waiting for
// that lock (`Lock:transactionid` on the counters' upsert in pg_stat_activity), about 200 creates a second.
// Taken on a connection of its own (./own-connection.ts), the row is locked for the one statement.
//
// What that changes: a create rolled back leaves its number unused (display ids may have gaps, as a sequence's
// values do), and numbers are taken in the order creates ask for them, not the order they commit in.
// The connection does not wait for the commit's log flush (synchronous_commit off): a record numbered from it
// commits later, and its own flush covers the counter's earlier commit; a counter lost in a crash gave its
// number to no record that was committed.
//
// A transaction that numbers many records (the seed, a sandbox template's data set) takes the numbers past its
// first OUTSIDE_PER_TRANSACTION inside itself: it is long anyway, and a commit of its own for each number made
// the template's 1,100 records 0.6-1 s slower to load (2.2-2.3 s against 2.9-3.3 s, alternated).
//
// A counter's row can be locked by a transaction for longer: the one copying a template's counters into a new
// sandbox, an organization's delete, or a transaction that numbered inside itself. Waiting for it there would
// hold up every other number behind it on the one connection, or for ever when the transaction holding it is
// the one asking. So the connection waits for no lock (lock_timeout of 1 ms): refused, the transaction takes
// that counter's numbers itself from then on, as SQLite always does.
import { sql } from "kysely";
import type { OwnConnection } from "./own-connection.js";

/** The statement that takes the next number of (organization, prefix): a counter starts at 1. */
export const NEXT_NUMBER = sql<{ value: number }>`insert into counters (org_id, prefix, value)
  values (${""}, ${""}, 1)
  on conflict (org_id, prefix) do update set value = counters.value + 1
  returning value`;

/** How many numbers a transaction takes outside itself before it takes the rest inside (see above). */
export const OUTSIDE_PER_TRANSACTION = 16;

/** The settings of the connection numbers are taken on (see above), as startup options. */
export const NUMBERS_CONNECTION_OPTIONS = "-c synchronous_commit=off -c lock_timeout=1";

/** The numbers taken on their own connection, for the transactions of one store. */
export class NumbersOutside {
  constructor(private readonly connection: OwnConnection) {}

  /** What one transaction takes numbers with. */
  forTransaction(): TransactionNumbers {
    return new TransactionNumbers(this.connection);
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/**
 * One transaction's side: the counters it takes inside itself, once one was refused outside, and how many
 * numbers it took outside.
 */
export class TransactionNumbers {
  readonly #inside = new Set<string>();
  #outside = 0;
  constructor(private readonly connection: OwnConnection) {}

  /** The next number of (orgId, prefix), or undefined: the transaction takes it itself. */
  async next(orgId: string, prefix: string): Promise<number | undefined> {
    const key = `${orgId}\n${prefix}`;
    if (this.#outside >= OUTSIDE_PER_TRANSACTION || this.#inside.has(key)) return undefined;
    try {
      const value = await this.connection.read([orgId, prefix]);
      if (typeof value === "number") {
        this.#outside++;
        return value;
      }
    } catch {
      // Refused (the row locked, or the connection lost): the transaction's own connection takes it, and
      // takes this counter's next ones too, as it may now hold the row.
    }
    this.#inside.add(key);
    return undefined;
  }
}
