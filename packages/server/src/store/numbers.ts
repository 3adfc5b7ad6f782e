// On PostgreSQL, the numbers of display ids (ISS-41, TAG-7...) are taken outside the transaction that uses
// them. A counter's row taken inside it stays locked until that transaction commits, so every create of the
// same kind in one organization ran one after another, each holding the row across its remaining statements
// and its commit: ten callers creating work items in one organization spent most of their time waiting for
// that lock (`Lock:transactionid` on the counters' upsert in pg_stat_activity), about 200 creates a second.
// Taken on a connection of its own (./own-connection.ts), the row is locked for the one statement.
//
// The numbers asked for while that connection runs a statement are taken together by the next one, a count
// per counter (`value + k`), so creates arriving together share one statement and one commit on that
// connection instead of each paying both: under ten callers creating work items (a number for the work and one
// for its timeline entry), the numbers took two of the eleven statements of a create, each with a commit of
// its own.
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

/**
 * The statement that takes the next numbers of several counters at once: `$1`, `$2` and `$3` are arrays of
 * organizations, prefixes and how many numbers of each; it answers each counter's last number taken (a
 * counter starts at 1, so a new one's last is its count). The rows are locked in one order (organization,
 * prefix), so two processes taking numbers together wait for each other, never in a circle.
 */
export const NEXT_NUMBERS = sql<{ org_id: string; prefix: string; value: number }>`insert into counters as c
    (org_id, prefix, value)
  select org_id, prefix, k from unnest(${[]}::text[], ${[]}::text[], ${[]}::int[]) as t(org_id, prefix, k)
    order by org_id, prefix
  on conflict (org_id, prefix) do update set value = c.value + excluded.value
  returning org_id, prefix, value`;

/** How many numbers a transaction takes outside itself before it takes the rest inside (see above). */
export const OUTSIDE_PER_TRANSACTION = 16;

/** The settings of the connection numbers are taken on (see above), as startup options. */
export const NUMBERS_CONNECTION_OPTIONS = "-c synchronous_commit=off -c lock_timeout=1";

/** A number asked for and not yet taken. */
interface Ask {
  key: string;
  orgId: string;
  prefix: string;
  resolve: (value: number) => void;
  reject: (error: unknown) => void;
}

/** The numbers taken on their own connection, for the transactions of one store. */
export class NumbersOutside {
  /** The numbers asked for while a statement runs: the next one takes them. */
  #asked: Ask[] = [];
  #taking = false;

  constructor(private readonly connection: OwnConnection) {}

  /** What one transaction takes numbers with. */
  forTransaction(): TransactionNumbers {
    return new TransactionNumbers(this);
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** The next number of (orgId, prefix); rejected when the connection could not take it (see above). */
  take(orgId: string, prefix: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#asked.push({ key: `${orgId}\n${prefix}`, orgId, prefix, resolve, reject });
      if (!this.#taking) void this.#takeAsked();
    });
  }

  /** Takes what is asked, one statement at a time, until nothing is. */
  async #takeAsked(): Promise<void> {
    this.#taking = true;
    while (this.#asked.length > 0) {
      const asks = this.#asked;
      this.#asked = [];
      const byCounter = new Map<string, Ask[]>();
      for (const ask of asks) {
        const group = byCounter.get(ask.key);
        if (group) group.push(ask);
        else byCounter.set(ask.key, [ask]);
      }
      try {
        await this.#takeFor(byCounter);
      } catch (error) {
        // One counter's row locked fails the statement for all: each counter is tried on its own, so that only
        // the locked one's askers take their numbers inside their transactions.
        if (byCounter.size === 1) {
          for (const ask of asks) ask.reject(error);
        } else {
          for (const [key, group] of byCounter) {
            await this.#takeFor(new Map([[key, group]])).catch((error: unknown) => {
              for (const ask of group) ask.reject(error);
            });
          }
        }
      }
    }
    this.#taking = false;
  }

  /** Takes the numbers of each counter's askers in one statement, and gives each its own in turn. */
  async #takeFor(byCounter: Map<string, Ask[]>): Promise<void> {
    const groups = [...byCounter.values()];
    const rows = await this.connection.rows([
      groups.map((group) => group[0]?.orgId),
      groups.map((group) => group[0]?.prefix),
      groups.map((group) => group.length),
    ]);
    const last = new Map<string, number>();
    for (const [orgId, prefix, value] of rows) last.set(`${orgId}\n${prefix}`, Number(value));
    for (const [key, group] of byCounter) {
      const end = last.get(key);
      if (end === undefined) throw new Error(`no number counted for ${key}`);
      for (const [i, ask] of group.entries()) ask.resolve(end - group.length + 1 + i);
    }
  }
}

/**
 * One transaction's side: the counters it takes inside itself, once one was refused outside, and how many
 * numbers it took outside.
 */
export class TransactionNumbers {
  readonly #inside = new Set<string>();
  #outside = 0;
  constructor(private readonly numbers: NumbersOutside) {}

  /** The next number of (orgId, prefix), or undefined: the transaction takes it itself. */
  async next(orgId: string, prefix: string): Promise<number | undefined> {
    const key = `${orgId}\n${prefix}`;
    if (this.#outside >= OUTSIDE_PER_TRANSACTION || this.#inside.has(key)) return undefined;
    try {
      const value = await this.numbers.take(orgId, prefix);
      this.#outside++;
      return value;
    } catch {
      // Refused (the row locked, or the connection lost): the transaction's own connection takes it, and
      // takes this counter's next ones too, as it may now hold the row.
    }
    this.#inside.add(key);
    return undefined;
  }
}
