// On PostgreSQL, the records a write looks up before it writes anything (a work's part, its owners, its type's
// stage diagram and start stage), kept between writes while their family's change count is unchanged.
//
// Why: a works.create on PostgreSQL ran eleven statements, each a round trip the server and the database pay
// in CPU, and four of them were these lookups of records that seldom change. Kept, they served 1.31-1.72x
// as many creates (10 callers, 4 alternated pairs of 6 s, 2,000 seeded works: 571-974 against 830-1,298 a
// second).
//
// Exact in the way kept answers are (see ARCHITECTURE.md, "Kept answers and why they are never stale"): a
// write's counts (`at`) are the ones its request read after it arrived, before its transaction began. A
// looked-up value is kept under the count of its family in those counts, and served to a later write only
// when that write's counts hold the same count: then no change to the family was committed before that
// write arrived, and what is kept was read after the counts it is kept under. Only a transaction that has
// written nothing yet uses or fills this: it sees no change of its own that could still be rolled back, and
// its reads see what is committed. Callers get copies: a handler may change what it was given.
import type { Snapshot } from "./changes.js";

/** The families whose lookups inside writes are kept (they change seldom and are read by hot writes). */
const KEPT_LOOKUP_KINDS: ReadonlySet<string> = new Set(["part", "custom_stage", "stage_diagram"]);

/** How many lookups are kept at most (a stage diagram list is a few kB); past it, all are dropped and read again. */
const MAX_ENTRIES = 2_000;

interface Kept {
  count: number;
  value: unknown;
}

/** The family count a lookup depends on: a record kind's, or the credentials' for dev users. */
export type LookupFamily = { kind: string } | { credentials: true };

export class KeptLookups {
  readonly #entries = new Map<string, Kept>();

  /** Whether lookups of records of `kind` are kept. */
  keeps(kind: string): boolean {
    return KEPT_LOOKUP_KINDS.has(kind);
  }

  /** `read`'s value, kept under `key` while the count of `family` in `at` is unchanged (see above). */
  async through<T>(key: string, family: LookupFamily, at: Snapshot, read: () => Promise<T>): Promise<T> {
    const count = "kind" in family ? at.family(family.kind) : at.credentials;
    const kept = this.#entries.get(key);
    if (kept?.count === count) return structuredClone(kept.value) as T;
    const value = await read();
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, { count, value: structuredClone(value) });
    return value;
  }
}
