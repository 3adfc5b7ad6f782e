// What has been committed to the database, as cheaply as a request can ask: per family of records (and for
// credentials) a count that moves with every change. Caches keep what they read while the counts they depend
// on are unchanged (CredentialsCache, KeptRecords, the answers of reads). The counts are the same on both
// databases (triggers that move them in the same transaction as the changes they count: migrations
// 0002_credential_changes and 0007_family_changes on SQLite, 0009_postgres_changes on PostgreSQL); what
// differs is how a request learns them: FileChanges reads a SQLite file's version at once, and the counts only
// when it moved; DatabaseChanges asks PostgreSQL for them in one statement. The exactness of both is argued
// in the server README ("Kept answers and credentials").

/**
 * What a family's second count is named by (`~work`): it moves with every update and delete of a record of
 * the family, never with an insert (the same triggers move both: 0014_rewrite_counts). A record found by its
 * id changes only when it is updated or deleted, ids being unique, so a read that found one depends on this
 * count only (see ../core/answers.ts); a read that found nothing, or read a list, depends on the family's.
 */
export const REWRITES = "~";

/** The name of the count of updates and deletes of records of `kind` (see REWRITES). */
export function rewritesOf(kind: string): string {
  return `${REWRITES}${kind}`;
}

/**
 * The counts a read of one record of `kinds` by `idOrDisplayId` depends on, given what it `found` (see
 * REWRITES): the found record's count of updates and deletes when it was found by its id, else the families'.
 * Kept answers (../core/answers.ts) and kept records (./kept-records.ts) both follow it.
 */
export function oneRecordCounts(kinds: readonly string[], idOrDisplayId: unknown, found: unknown): string[] {
  const record = found as { id?: unknown; kind?: unknown } | undefined;
  if (record && record.id === idOrDisplayId && typeof record.kind === "string")
    return [rewritesOf(record.kind)];
  return [...kinds];
}

/** The committed counts at one moment. */
export interface Snapshot {
  /** The count of changes to tokens, organizations and users. */
  readonly credentials: number;
  /** The count of changes to records of `kind` (or of updates and deletes: `rewritesOf(kind)`); 0 before the first. */
  family(kind: string): number;
}

/** The counts as a source reads them. */
export interface Counts {
  credentials: number;
  families: ReadonlyMap<string, number>;
}

/** Where the caches learn what is committed: one of the two sources below. */
export interface Changes {
  /**
   * The counts as committed now: every change committed before this call is counted. At once on a SQLite
   * file (FileChanges); on PostgreSQL, a promise of one statement's answer (DatabaseChanges).
   */
  now(): Snapshot | Promise<Snapshot>;
  /**
   * Whether something is known to have been committed since `snapshot` was taken, so that what was read
   * since may be newer than its counts say (then not worth keeping: the next request would miss it).
   * False when the source cannot tell without asking the database. Exactness does not rest on it (see the
   * README): a cache keeps what it read under counts read before it, and counts only ever move up.
   */
  movedSince(snapshot: Snapshot): boolean;
  /** Releases what the source holds (on PostgreSQL, its connection); called when the store closes. */
  close?(): Promise<void>;
}

function snapshotOf({ credentials, families }: Counts): Snapshot {
  return { credentials, family: (kind) => families.get(kind) ?? 0 };
}

interface FileSnapshot extends Snapshot {
  /** `PRAGMA data_version` of the read connection when the counts were read. */
  readonly version: number;
}

/**
 * A SQLite file's counts at one version: the credentials' read with it, each family's when it is first asked
 * for (and kept for the snapshot's life). Under writes the version moves with every commit, and reading every
 * family's count each time was a tenth of the main thread's work for requests that ask for none (a write
 * asks only for the credentials'). A family's count read later than the version is at least as new as it,
 * as the eager read after the version was (see FileChanges): what a cache keeps is still read after the
 * count it is kept under, and if the count is newer than the version, the version has moved too, and the
 * next `now()` gives a snapshot of its own.
 */
class LazyFileSnapshot implements FileSnapshot {
  readonly #families = new Map<string, number>();
  constructor(
    readonly version: number,
    readonly credentials: number,
    private readonly readFamily: (kind: string) => number,
  ) {}
  family(kind: string): number {
    let count = this.#families.get(kind);
    if (count === undefined) {
      count = this.readFamily(kind);
      this.#families.set(kind, count);
    }
    return count;
  }
}

/**
 * On a SQLite file. The file's version is `PRAGMA data_version` on the read connection: it moves whenever
 * any other connection commits to the file, this process's write connections (the write thread's, the main
 * thread's) and every other process's alike, and reading it takes no lock of its own. The counts move in the
 * same transaction as the changes they count (triggers), so they are committed exactly when those are.
 * `now()` reads the version and, only when it moved, the credentials' count (a family's when first asked
 * for, see LazyFileSnapshot): a snapshot whose version is the file's version now holds the counts as they
 * are now. (Read after the version, the counts may be newer than it; the version has then moved too, and
 * the next `now()` reads them again.)
 */
export class FileChanges implements Changes {
  #snapshot: FileSnapshot | undefined;

  constructor(
    private readonly dataVersion: () => number,
    private readonly readCredentials: () => number,
    private readonly readFamily: (kind: string) => number,
  ) {}

  /** The counts as committed now. */
  now(): Snapshot {
    const version = this.dataVersion();
    const kept = this.#snapshot;
    if (kept?.version === version) return kept;
    const snapshot = new LazyFileSnapshot(version, this.readCredentials(), this.readFamily);
    this.#snapshot = snapshot;
    return snapshot;
  }

  /** Whether something was committed to the file since `snapshot` was taken. */
  movedSince(snapshot: Snapshot): boolean {
    return this.dataVersion() !== (snapshot as FileSnapshot).version;
  }
}

/**
 * On PostgreSQL, where nothing tells a process for free that another committed: `readCounts` reads every
 * count in one statement (one round trip), whose snapshot sees every transaction committed before the
 * statement began. The requests that ask during one turn of the event loop share one read, sent at the end of
 * that turn (so it begins after every one of them asked); at most `maxInFlight` reads are on their way at
 * once (the store's reader runs them on a connection of its own, see ./own-connection.ts, which takes
 * them in turn), and a turn's read waits for one of them to be answered when that many are. So each request
 * waits for one read begun after it asked; a read on its way, which may have begun before, is never shared
 * with a request that asked after it was sent.
 *
 * One read on its way at a time by default. Two let the requests of one turn skip the wait for a whole round
 * trip of the previous turn's read, and on a day this machine's database answered slowly one at a time left
 * the main thread idle a quarter of the time; but each read costs the main thread and the database CPU, and
 * with the load generator on the same two cores, fewer and larger shared reads served more: works.get on
 * PostgreSQL, 10 connections, three interleaved rounds of 3 x 3 s, medians 1.40x, 1.04x, 1.13x of two at a time
 * (50 connections: 1.08x, 0.91x; the main thread was idle a fifth of the time with two).
 */
export class DatabaseChanges implements Changes {
  /** How many reads are on their way. */
  #inFlight = 0;
  /** The read the requests of this turn (and of turns since, while reads were full) wait for. */
  #next:
    | { promise: Promise<Snapshot>; resolve: (s: Snapshot) => void; reject: (e: unknown) => void }
    | undefined;
  /** Whether `#next` is to be sent at the end of this turn (else it waits for a read to be answered). */
  #scheduled = false;

  constructor(
    private readonly readCounts: () => Promise<Counts>,
    private readonly maxInFlight = 1,
    private readonly release?: () => Promise<void>,
  ) {}

  async close(): Promise<void> {
    await this.release?.();
  }

  now(): Promise<Snapshot> {
    let next = this.#next;
    if (!next) {
      let resolve: (s: Snapshot) => void = () => {};
      let reject: (e: unknown) => void = () => {};
      const promise = new Promise<Snapshot>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      next = { promise, resolve, reject };
      this.#next = next;
    }
    if (!this.#scheduled && this.#inFlight < this.maxInFlight) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#send();
      });
    }
    return next.promise;
  }

  /** Nothing is known without asking the database. */
  movedSince(): boolean {
    return false;
  }

  /** Sends the read the waiting requests share, if any and if a read may be sent. */
  #send(): void {
    const next = this.#next;
    if (!next || this.#inFlight >= this.maxInFlight) return;
    this.#next = undefined;
    this.#inFlight++;
    this.readCounts()
      .then(snapshotOf)
      .then(next.resolve, next.reject)
      .finally(() => {
        this.#inFlight--;
        // The requests that asked while every read was on its way: all asked before this moment.
        if (!this.#scheduled) this.#send();
      });
  }
}
