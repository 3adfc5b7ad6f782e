// Queries compiled once per shape. Kysely builds and compiles a query tree on every call, a quarter of a hot
// read's time; the reads made on every request (credentials, a record by id, the pages of every list: see
// ./list-shapes.ts) are compiled the first time and then run with each call's parameters.
import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { DB } from "./tables.js";

/**
 * At most this many shapes are kept; past it the oldest goes. A list's shapes vary with what a request sends
 * (its filter, its IN lists' lengths, its page size on SQLite), so without a bound requests could grow the map
 * without end; the hot shapes are asked for again and again, and come back at the cost of one compile.
 */
const MAX_SHAPES = 2000;

export class CompiledQueries {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly queries = new Map<string, CompiledQuery>(),
  ) {}

  /** The same compiled queries, run on `db`: a transaction of the database they were compiled for. */
  on(db: Kysely<DB>): CompiledQueries {
    return new CompiledQueries(db, this.queries);
  }

  /**
   * Runs the query `build` makes, compiled the first time this `shape` is asked for, with `parameters`: the
   * values `build` binds, in the order they appear in the SQL. The first compile checks that they are.
   */
  async run<R>(shape: string, parameters: unknown[], build: () => Compilable): Promise<R[]> {
    let query = this.queries.get(shape);
    if (!query) {
      query = build().compile();
      if (JSON.stringify(query.parameters) !== JSON.stringify(parameters)) {
        throw new Error(`query ${shape} binds ${JSON.stringify(query.parameters)}, not the given parameters`);
      }
      if (this.queries.size >= MAX_SHAPES) this.queries.delete(this.queries.keys().next().value as string);
      this.queries.set(shape, query);
    }
    return (await this.db.executeQuery<R>({ ...query, parameters })).rows;
  }
}
