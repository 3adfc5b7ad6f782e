// What has been committed to a SQLite file, as cheaply as a request can ask: the file's version, and per
// family of records (and for credentials) a count that moves with every change. Caches keep what they read
// while the counts they depend on are unchanged (CredentialsCache, KeptRecords, the answers of reads).

/** The committed counts at one moment. */
export interface Snapshot {
  /** `PRAGMA data_version` of the read connection when the counts were read. */
  readonly version: number;
  /** The count of changes to tokens, organizations and users (migration 0002_credential_changes). */
  readonly credentials: number;
  /** The count of changes to records of `kind` (migration 0007_family_changes); 0 before the first. */
  family(kind: string): number;
}

/**
 * The file's version is `PRAGMA data_version` on the read connection: it moves whenever any other connection
 * commits to the file, this process's write connections (the write thread's, the main thread's) and every
 * other process's alike, and reading it takes no lock of its own. The counts move in the same transaction as
 * the changes they count (triggers), so they are committed exactly when those are. `now()` reads the
 * version and, only when it moved, the counts: a snapshot whose version is the file's version now holds the
 * counts as they are now. (Read after the version, the counts may be newer than it; the version has then
 * moved too, and the next `now()` reads them again.)
 */
export class Changes {
  #snapshot: Snapshot | undefined;

  constructor(
    private readonly dataVersion: () => number,
    private readonly readCounts: () => { credentials: number; families: ReadonlyMap<string, number> },
  ) {}

  /** The counts as committed now. */
  now(): Snapshot {
    const version = this.dataVersion();
    const kept = this.#snapshot;
    if (kept?.version === version) return kept;
    const { credentials, families } = this.readCounts();
    const snapshot: Snapshot = { version, credentials, family: (kind) => families.get(kind) ?? 0 };
    this.#snapshot = snapshot;
    return snapshot;
  }

  /** Whether nothing was committed to the file since `snapshot` was taken. */
  unchangedSince(snapshot: Snapshot): boolean {
    return this.dataVersion() === snapshot.version;
  }
}
