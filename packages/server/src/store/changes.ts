// What has been committed to the database, as cheaply as a request can ask: per family of records (and for
// credentials) a count that moves with every change. Caches keep what they read while the counts they depend
// on are unchanged (CredentialsCache, KeptRecords, the answers of reads). The counts are the same on both
// databases (triggers that move them in the same transaction as the changes they count: migrations
// 0002_credential_changes and 0007_family_changes on SQLite, 0009_postgres_changes on PostgreSQL); what
// differs is how a request learns them: FileChanges reads a SQLite file's version at once, and the counts only
// when it moved; DatabaseChanges asks PostgreSQL for them in one statement. The exactness of both is argued
// in the server README ("Kept answers and credentials").

/** The committed counts at one moment. */
export interface Snapshot {
  /** The count of changes to tokens, organizations and users. */
  readonly credentials: number;
  /** The count of changes to records of `kind`; 0 before the first. */
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
}

function snapshotOf({ credentials, families }: Counts): Snapshot {
  return { credentials, family: (kind) => families.get(kind) ?? 0 };
}

interface FileSnapshot extends Snapshot {
  /** `PRAGMA data_version` of the read connection when the counts were read. */
  readonly version: number;
}

/**
 * On a SQLite file. The file's version is `PRAGMA data_version` on the read connection: it moves whenever
 * any other connection commits to the file, this process's write connections (the write thread's, the main
 * thread's) and every other process's alike, and reading it takes no lock of its own. The counts move in the
 * same transaction as the changes they count (triggers), so they are committed exactly when those are.
 * `now()` reads the version and, only when it moved, the counts: a snapshot whose version is the file's
 * version now holds the counts as they are now. (Read after the version, the counts may be newer than it;
 * the version has then moved too, and the next `now()` reads them again.)
 */
export class FileChanges implements Changes {
  #snapshot: FileSnapshot | undefined;

  constructor(
    private readonly dataVersion: () => number,
    private readonly readCounts: () => Counts,
  ) {}

  /** The counts as committed now. */
  now(): Snapshot {
    const version = this.dataVersion();
    const kept = this.#snapshot;
    if (kept?.version === version) return kept;
    const snapshot: FileSnapshot = { ...snapshotOf(this.readCounts()), version };
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
 * statement began. Requests that ask while a read is on its way share the next one, sent once it is
 * answered: the read on its way may have begun before they asked (and miss a commit made just before), the
 * next one begins after. So each request waits for one read begun after it asked, and the database answers
 * one read per round trip however many requests arrive meanwhile.
 */
export class DatabaseChanges implements Changes {
  /** The read on its way. */
  #sent: Promise<Snapshot> | undefined;
  /** The read to send once the one on its way is answered, for the requests that asked meanwhile. */
  #queued: Promise<Snapshot> | undefined;

  constructor(private readonly readCounts: () => Promise<Counts>) {}

  now(): Promise<Snapshot> {
    if (this.#queued) return this.#queued;
    const sent = this.#sent;
    if (!sent) return this.#send();
    const queued = sent
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.#queued = undefined;
        return this.#send();
      });
    this.#queued = queued;
    return queued;
  }

  /** Nothing is known without asking the database. */
  movedSince(): boolean {
    return false;
  }

  #send(): Promise<Snapshot> {
    const read: Promise<Snapshot> = this.readCounts()
      .then(snapshotOf)
      .finally(() => {
        if (this.#sent === read) this.#sent = undefined;
      });
    this.#sent = read;
    return read;
  }
}
