// Records that change seldom but that every write reads before it writes anything (a work's part, its owners,
// its type's stage diagrams and start stage), kept between reads while the change count they were read under
// is unchanged. No time-based expiry: a change to what was kept moves its count in the same transaction.
//
// Why: a works.create on PostgreSQL ran eleven statements, each a round trip the server and the database pay
// in CPU, and four of them were these lookups. Kept, they served 1.31-1.72x as many creates (10 callers, 4
// alternated pairs of 6 s, 2,000 seeded works: 571-974 against 830-1,298 a second). On a SQLite file each
// works.create read its type's stage diagrams on the write thread, the one every write waits for.
//
// One cache, with counts from where each database lets a reader learn them for free:
// - On a SQLite file (fileCounts), a count is read where the reader reads: inside a transaction on the write
//   connection, where the transaction sees its own changes (and, under group commit, those of the
//   transactions sharing its commit), outside one as committed (FileChanges). What a transaction read is kept
//   only when its count equals the committed one: it then holds no change that may yet be rolled back.
// - On PostgreSQL (requestCounts), a read inside a transaction would be one more round trip, which is what
//   keeping saves: the counts are those the write's request read after it arrived, before its transaction
//   began (`at`). They serve only a transaction that has written nothing yet: it sees no change of its own,
//   and its reads see what is committed. What such a transaction reads is at least as new as `at`.
// - On SQLite in memory (connectionCounts), one connection: see there.
// Either way a kept value is served only when the reader's count equals the one it was kept under: nothing
// the value depends on changed before the reader's count was read. The argument is ARCHITECTURE.md's ("Kept
// answers and why they are never stale"), and so is the use of a family's second count: a record found by
// its id is kept under its family's count of updates and deletes (`rewritesOf`), which no insert moves.
import { type FileChanges, oneRecordCounts, rewritesOf, type Snapshot } from "./changes.js";

/** The families whose records are kept (they change seldom, and every works.create reads them). */
const KEPT_FAMILIES: ReadonlySet<string> = new Set(["part", "custom_stage", "stage_diagram"]);

/** The name of the credentials' count among the families' (dev users are kept under it). */
export const CREDENTIALS = "\0credentials";

/** Where a store reads: what decides which counts it may use. */
export interface Reader {
  inTransaction: boolean;
  /** Whether its transaction has written or waited for a lock (PostgreSQL then uses nothing kept). */
  wrote: boolean;
  /** The counts its request read after it arrived (a PostgreSQL transaction's store). */
  at?: Snapshot | undefined;
}

/** A count where a reader reads, and whether what it reads now may be kept under it. */
interface Count {
  count: number;
  keep(): boolean;
}

/** Where kept records' counts come from: undefined when the reader may use nothing kept. */
export type KeptCounts = (reader: Reader, family: string) => Count | undefined;

const ALWAYS = () => true;

/**
 * A SQLite file's counts (see above): `inTransaction` reads a family's count (or the credentials') on the
 * write connection, `changes` says what is committed.
 */
export function fileCounts(changes: FileChanges, inTransaction: (family: string) => number): KeptCounts {
  const committed = (family: string) => {
    const now = changes.now();
    return family === CREDENTIALS ? now.credentials : now.family(family);
  };
  return (reader, family) => {
    if (!reader.inTransaction) return { count: committed(family), keep: ALWAYS };
    const count = inTransaction(family);
    return { count, keep: () => committed(family) === count };
  };
}

/**
 * The counts of a database on one connection (SQLite in memory), which every call uses in turn: read on it,
 * a count is committed, or inside a transaction counts that transaction's changes too. Those may yet be
 * rolled back, and no committed count can be read beside them: so a store on one connection drops all it
 * keeps when a transaction rolls back (`rolledBack`), and what it kept is the committed state again. A read
 * outside the transaction that holds the connection (`inTransaction`) waits for it to end, and would read
 * a count that transaction may roll back: it uses nothing kept.
 */
export function connectionCounts(read: (family: string) => number, inTransaction: () => boolean): KeptCounts {
  return (reader, family) =>
    !reader.inTransaction && inTransaction() ? undefined : { count: read(family), keep: ALWAYS };
}

/** PostgreSQL's counts: the ones a transaction's request read, while it has written nothing (see above). */
export const requestCounts: KeptCounts = ({ inTransaction, wrote, at }, family) => {
  if (!inTransaction || wrote || !at) return undefined;
  return { count: family === CREDENTIALS ? at.credentials : at.family(family), keep: ALWAYS };
};

interface Kept {
  family: string;
  count: number;
  value: unknown;
}

/** How a read is kept: under which families' counts, and which one the value it read depends on. */
export interface KeptRead<T> {
  /** The families the read may be kept under, their counts taken before it reads. */
  families: readonly string[];
  /** The one of `families` the value read depends on (the first when absent). */
  under?: (value: T) => string;
}

/** How many reads are kept at most (a type's stage diagrams are a few kB); past it, all are dropped and read again. */
const MAX_ENTRIES = 2_000;

export class KeptRecords {
  readonly #entries = new Map<string, Kept>();

  /** `forgetsRollbacks`: drop everything kept when a transaction rolls back (see connectionCounts). */
  constructor(
    private readonly counts: KeptCounts,
    private readonly forgetsRollbacks = false,
  ) {}

  /** Called when a transaction of the store rolls back. */
  rolledBack(): void {
    if (this.forgetsRollbacks) this.#entries.clear();
  }

  /** Whether records of `kind` are kept. */
  keeps(kind: string): boolean {
    return KEPT_FAMILIES.has(kind);
  }

  /**
   * `read`'s value, kept under `key` (see above). A value served from what is kept is deeply frozen, as one
   * caller's change would be every later caller's: a caller that may change what it gets copies it (`copied`).
   */
  async through<T>(reader: Reader, key: string, how: KeptRead<T>, read: () => Promise<T>): Promise<T> {
    const kept = this.#entries.get(key);
    if (kept && this.counts(reader, kept.family)?.count === kept.count) return kept.value as T;
    const counts = new Map<string, Count>();
    for (const family of how.families) {
      const count = this.counts(reader, family);
      if (!count) return read();
      counts.set(family, count);
    }
    const value = await read();
    const family = how.under?.(value) ?? how.families[0];
    const count = family === undefined ? undefined : counts.get(family);
    if (family !== undefined && count?.keep()) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, { family, count: count.count, value: deepFreeze(structuredClone(value)) });
    }
    return value;
  }
}

/** The families a read of one record of `kind` by `idOrDisplayId` is kept under (see above). */
export function oneRecordRead<T extends { id: string } | undefined>(
  kind: string,
  idOrDisplayId: string,
): KeptRead<T> {
  return {
    families: [kind, rewritesOf(kind)],
    under: (record) => oneRecordCounts([kind], idOrDisplayId, record)[0] ?? kind,
  };
}

/** `value`, or a copy a caller may change when it is a kept (frozen) one. */
export function copied<T>(value: T): T {
  return value && typeof value === "object" && Object.isFrozen(value) ? structuredClone(value) : value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
