// The connection PostgreSQL's change counts are read on (see DatabaseChanges in ./changes.ts): a client of its
// own, used directly rather than through Kysely and the pool. The read runs thousands of times a second under
// load, one per turn of the event loop that has requests, and on a kept read it is the only statement: the
// pool's acquiring and releasing, Kysely's driver layers and the per-call query wrapping were a measurable
// share of the main thread on this path (pg, pg-pool and their promises about 8% of a CPU profile of
// works.get), where the statement itself never changes.
import { performance } from "node:perf_hooks";
import type { CompiledQuery, Log } from "kysely";
import type { Client, ClientConfig } from "pg";

/** What the store logs about the connection (a subset of StoreLogger). */
interface Logger {
  warn(message: string): void;
}

export class CountsConnection {
  #client: Promise<Client> | undefined;
  #closed = false;

  /**
   * `Client`: pg's client class (pg is loaded only for PostgreSQL); `config`: how to connect (the store's
   * URL and search_path); `statement`: compiled, without parameters, run as a prepared statement; `log`: the
   * store's query log (Kysely's, so that a log of every statement the store runs still has this one).
   */
  constructor(
    private readonly ClientClass: new (config: ClientConfig) => Client,
    private readonly config: ClientConfig,
    private readonly statement: CompiledQuery,
    private readonly logger?: Logger,
    private readonly log?: Log,
  ) {}

  /** The first column of the statement's one row, as text ("" when it has none). */
  async read(): Promise<string> {
    if (!this.log) return this.#read();
    const started = performance.now();
    const event = () => ({ query: this.statement, queryDurationMillis: performance.now() - started });
    try {
      const value = await this.#read();
      await this.log.query(() => ({ level: "query", ...event() }));
      return value;
    } catch (error) {
      await this.log.error(() => ({ level: "error", error, ...event() }));
      throw error;
    }
  }

  async #read(): Promise<string> {
    const connecting = this.#connected();
    const client = await connecting;
    try {
      const { rows } = await client.query<unknown[]>({
        name: "workapi_counts",
        text: this.statement.sql,
        rowMode: "array",
      });
      const value = rows[0]?.[0];
      return typeof value === "string" ? value : "";
    } catch (error) {
      // The statement never fails on a sound connection: the next read connects anew (the client may not
      // have told yet that the connection broke).
      if (this.#client === connecting) this.#client = undefined;
      client.end().catch(() => {});
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
      this.logger?.warn(`store: PostgreSQL counts connection error: ${error.message}`);
      forget();
    });
    client.on("end", forget);
    this.#client = connecting;
    return connecting;
  }
}
