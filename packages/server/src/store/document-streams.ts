// The stored documents of an answer of thousands (works.export) as chunks of bytes, read from a SQLite file
// while they are sent. Joined whole by the database (Expressions.joinedDocuments), 5,000 works (10 MB) were
// read in full before the first byte went out: 39 ms to the first byte, then the transfer. Here the first
// chunk goes out once its rows are read, and each next one as the connection takes it (the answer's stream
// pulls them), so reading and sending overlap.
//
// better-sqlite3 reads a statement's rows one by one only while nothing else runs on the connection, and the
// server's read connection serves every other request between two chunks: each answer reads on a read-only
// connection of its own, in one read transaction, so it is one snapshot of the file however long the caller
// takes to receive it. The connections are kept for the next answers (IDLE_CONNECTIONS of them): a new one
// read the same 5,000 works in 33-41 ms against 16-20 ms on one that had read them before (its map of the
// file and its page cache start empty).
import Database from "better-sqlite3";
import type { CompiledQuery } from "kysely";

/** Documents per chunk: some 1 MB of works, sent while the next are read. */
const DOCUMENTS_PER_CHUNK = 500;
/** Read connections kept open between answers (more are opened while more answers are read at once). */
const IDLE_CONNECTIONS = 2;
const COMMA = Buffer.from(",");

export class SqliteDocumentStreams {
  readonly #idle: Database.Database[] = [];
  #closed = false;

  constructor(private readonly file: string) {}

  /**
   * `before`, then the one column (a blob: the document's bytes) of every row of `query` joined by commas,
   * then `after`. The statement is prepared and the first chunk read before this resolves, so a query that
   * fails does so before anything is sent; the reading then waits inside the generator, so that ending the
   * iteration early (the answer's stream destroyed: the caller went away) gives the connection back too.
   */
  async open(query: CompiledQuery, before: string, after: string): Promise<AsyncIterable<Buffer>> {
    const generator = read(this.#connection(), query, before, after, (connection) =>
      this.#release(connection),
    );
    let head: IteratorResult<Buffer> | undefined = await generator.next();
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          const first = head;
          head = undefined;
          return first ? Promise.resolve(first) : generator.next();
        },
        return: () => generator.return(undefined),
      }),
    };
  }

  /** Closes the connections kept; those still reading close when their answer ends. */
  close(): void {
    this.#closed = true;
    for (const connection of this.#idle.splice(0)) connection.close();
  }

  #connection(): Database.Database {
    const kept = this.#idle.pop();
    if (kept) return kept;
    const connection = new Database(this.file, { readonly: true });
    connection.pragma("busy_timeout = 5000");
    // The file mapped (up to 256 MiB) instead of each page copied into SQLite's 2 MB cache: an export of 5,000
    // works read 10 MB in 7 ms this way, 12.6 ms without. Only these answers pay the map's cost under writes
    // (./open.ts says what it is); the mapped pages are the OS's file cache, not the process's memory.
    connection.pragma("mmap_size = 268435456");
    return connection;
  }

  #release(connection: Database.Database): void {
    if (this.#closed || this.#idle.length >= IDLE_CONNECTIONS) connection.close();
    else this.#idle.push(connection);
  }
}

async function* read(
  connection: Database.Database,
  query: CompiledQuery,
  before: string,
  after: string,
  release: (connection: Database.Database) => void,
): AsyncGenerator<Buffer> {
  try {
    const rows = connection
      .prepare(query.sql)
      .pluck()
      .iterate(...(query.parameters as unknown[])) as IterableIterator<Buffer>;
    let pieces: Buffer[] = [Buffer.from(before)];
    let count = 0;
    // Left early, for...of finishes the statement (and its read transaction) before the connection is
    // given back.
    for (const row of rows) {
      if (count > 0) pieces.push(COMMA);
      pieces.push(row);
      count++;
      if (count % DOCUMENTS_PER_CHUNK === 0) {
        yield Buffer.concat(pieces);
        pieces = [];
        // Every other request goes on between two chunks.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    pieces.push(Buffer.from(after));
    yield Buffer.concat(pieces);
  } finally {
    release(connection);
  }
}
