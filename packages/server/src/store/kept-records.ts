// Records of families that change seldom but are read on hot paths (a work's stage diagram, read by every
// works.create), kept between reads on a SQLite file while their family is unchanged. No time-based expiry.
import type { FileChanges } from "./changes.js";
import { KEPT_KINDS } from "./migrations.js";
import type { StoredRecord } from "./types.js";

interface Kept {
  /** The family's change count the records were read at. */
  count: number;
  records: ReadonlyArray<StoredRecord<object>>;
}

/**
 * A family's change count (migration `0007_family_changes`) moves in the same transaction as every
 * change to one of its records, by any connection of any process, and only ever moves up once committed.
 * `changes` says what is committed (see FileChanges); `transactionCount` reads the count on the write
 * connection, where a transaction also sees its own changes and, under group commit, those of the
 * transactions sharing its commit.
 *
 * Kept records are used when the count read where the caller reads (in its transaction or outside) equals
 * the count they were read at. Equal means that nothing committed since, and that the caller's transaction
 * changed nothing of the family: its count would be higher than any committed one. Records read inside a
 * transaction are kept only when its count equals the committed one, so changes that may yet be rolled back
 * are never kept. Outside a transaction the count is read before the records, so what is kept is at least
 * as new as its count says; a newer count then makes the next read miss. Kept records are frozen: a caller
 * that tried to change one would change every later caller's.
 */
export class KeptRecords {
  readonly #entries = new Map<string, Kept>();

  constructor(
    private readonly changes: FileChanges,
    private readonly transactionCount: (kind: string) => number,
    private readonly size = 10_000,
  ) {}

  #committedCount(kind: string): number {
    return this.changes.now().family(kind);
  }

  /** Whether records of `kind` are kept. */
  keeps(kind: string): boolean {
    return (KEPT_KINDS as readonly string[]).includes(kind);
  }

  /** The records `read` reads, kept under `key` while `kind` is unchanged (see the class). */
  async through<T extends object>(
    kind: string,
    key: string,
    inTransaction: boolean,
    read: () => Promise<Array<StoredRecord<T>>>,
  ): Promise<ReadonlyArray<StoredRecord<T>>> {
    const count = inTransaction ? this.transactionCount(kind) : this.#committedCount(kind);
    const kept = this.#entries.get(key);
    if (kept?.count === count) return kept.records as ReadonlyArray<StoredRecord<T>>;
    const records = await read();
    if (!inTransaction || this.#committedCount(kind) === count) {
      if (this.#entries.size >= this.size) this.#entries.clear();
      this.#entries.set(key, { count, records: deepFreeze(records) });
    }
    return records;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
