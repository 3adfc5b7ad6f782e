// A PostgreSQL connection of its own for one statement that runs outside every transaction, used directly
// rather than through Kysely and the pool. The store has two: one reads the change counts (see DatabaseChanges in
// ./changes.ts), read thousands of times a second under load, one per turn of the event loop that has
// requests (on a kept read the only statement: the pool's acquiring and releasing, Kysely's driver layers and
// the per-call query wrapping were a measurable share of the main thread on this path, pg, pg-pool and their
// promises about 8% of a CPU profile of works.get); the other takes the display ids' numbers (see ./numbers.ts),
// which no transaction may hold locked while it runs. A pool's connection could not be that: transactions holding
// every connection of the pool, each waiting for one more to number a record, would wait for ever.
import { performance } from "node:perf_hooks";
import type { CompiledQuery, Log } from "kysely";
import type { Client, ClientConfig } from "pg";

/** What the store logs about the connection (a subset of StoreLogger). */
interface Logger {
  warn(message: string): void;
}

export class OwnConnection {
  #client: Promise<Client> | undefined;
  #closed = false;

  /**
   * `Client`: pg's client class (pg is loaded only for PostgreSQL); `config`: how to connect (the store's
   * URL and search_path, and any settings of this connection's own); `statement`: compiled, run as the
   * prepared statement `name` with the parameters of each read; `log`: the store's query log (Kysely's, so
   * that a log of every statement the store runs still has this one).
   */
  constructor(
    private readonly ClientClass: new (config: ClientConfig) => Client,
    private readonly config: ClientConfig,
    private readonly name: string,
    private readonly statement: CompiledQuery,
    private readonly logger?: Logger,
    private readonly log?: Log,
  ) {}

  /** The reads asked for, in turn: the last one's end. */
  #queue: Promise<unknown> = Promise.resolve();

  /** The first column of the statement's first row (undefined when it has none); see `rows`. */
  async read(parameters: readonly unknown[] = []): Promise<unknown> {
    return (await this.rows(parameters))[0]?.[0];
  }

  /**
   * The statement's rows, each an array of its columns. Reads asked for while one runs wait their turn here:
   * pg's client queues them too, but warns that it will stop doing so.
   */
  rows(parameters: readonly unknown[] = []): Promise<unknown[][]> {
    const turn = this.#queue.then(() => this.#logged(parameters));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #logged(parameters: readonly unknown[]): Promise<unknown[][]> {
    if (!this.log) return this.#read(parameters);
    const started = performance.now();
    const query = { ...this.statement, parameters };
    const event = () => ({ query, queryDurationMillis: performance.now() - started });
    try {
      const value = await this.#read(parameters);
      await this.log.query(() => ({ level: "query", ...event() }));
      return value;
    } catch (error) {
      await this.log.error(() => ({ level: "error", error, ...event() }));
      throw error;
    }
  }

  async #read(parameters: readonly unknown[]): Promise<unknown[][]> {
    const connecting = this.#connected();
    const client = await connecting;
    try {
      const { rows } = await client.query<unknown[]>({
        name: this.name,
        text: this.statement.sql,
        values: [...parameters],
        rowMode: "array",
      });
      return rows;
    } catch (error) {
      // A statement that failed on a sound connection (a lock not granted in time, say) leaves it usable; any
      // other failure (the backend gone, the connection lost, the client not told yet) connects anew next time.
      if (!sound(error)) {
        if (this.#client === connecting) this.#client = undefined;
        client.end().catch(() => {});
      }
      throw error;
    }
  }

  /** Ends the connection; a read after it fails. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.then((c) => c.end()).catch(() => {});
  }

  /**
   * The connection, made on first use and again after it broke (a database restart, a network fault): the
   * reads on their way when it broke fail, as a pool's query would, and the next read connects anew.
   */
  #connected(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error("the store is closed"));
    if (this.#client) return this.#client;
    const client = new this.ClientClass(this.config);
    const connecting = client.connect().then(
      () => client,
      (error: unknown) => {
        if (this.#client === connecting) this.#client = undefined;
        throw error;
      },
    );
    const forget = () => {
      if (this.#client === connecting) this.#client = undefined;
    };
    // An error on an idle client must not crash the process; the next read connects again.
    client.on("error", (error) => {
      this.logger?.warn(`store: PostgreSQL connection ${this.name} error: ${error.message}`);
      forget();
    });
    client.on("end", forget);
    this.#client = connecting;
    return connecting;
  }
}

/**
 * Whether `error` is PostgreSQL's answer to a statement on a connection that is still sound: an error with a
 * SQLSTATE outside the classes of a lost connection (08) and of a backend stopped by the operator (57).
 */
function sound(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code.length === 5 && !code.startsWith("08") && !code.startsWith("57");
}
