// The plans of the list queries on big tables. A fresh database gets the demo data, which is then copied in
// SQL until `records` holds over 100,000 rows (timelines of thousands of entries among them); the planner's
// statistics are brought up to date as the server does at start. Then every list operation of the contract
// (those with `x-pagination`) runs through its handler, first page, next page and the page before, sorted as
// it sorts by default and by each indexed date; the SQL each ran is taken from the store's query log and
// explained. No plan may scan `records` whole, and none may sort where an index gives the order.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveRef } from "@workapi/spec";
import Database from "better-sqlite3";
import type { LogEvent } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { theContract } from "../../src/core/contract.js";
import { type Call, seedCaller } from "../../src/seed/calls.js";
import { seed } from "../../src/seed/index.js";
import { bootstrap } from "../../src/server.js";
import { dropPostgresSchema, openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/types.js";
import { DATABASE_URL, randomSchema } from "./suite.js";

const TARGET_ROWS = 100_000;
/** The sorts each list is read in: its default, and each date an index of every family is sorted by. */
const SORTS: Array<string[] | undefined> = [undefined, ["created_date:desc"], ["modified_date:desc"]];

interface Logged {
  sql: string;
  parameters: readonly unknown[];
}

/** The SQL of a database: run a statement, read rows, explain a query into the lines of its plan. */
interface Raw {
  run(text: string, parameters?: unknown[]): Promise<void>;
  rows<T>(text: string, parameters?: unknown[]): Promise<T[]>;
  /** The plan, one line per step, e.g. `SEARCH records USING INDEX ...` / `Index Scan on records`. */
  plan(query: Logged): Promise<string[]>;
  close(): Promise<void>;
}

function sqliteRaw(file: string): Raw {
  const db = new Database(file);
  db.pragma("busy_timeout = 5000");
  return {
    run: async (text, parameters = []) => void db.prepare(text).run(parameters),
    rows: async <T>(text: string, parameters: unknown[] = []) => db.prepare(text).all(parameters) as T[],
    plan: async (query) =>
      (
        db.prepare(`explain query plan ${query.sql}`).all([...query.parameters]) as Array<{ detail: string }>
      ).map((row) => row.detail),
    close: async () => void db.close(),
  };
}

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PgNode[];
}

async function postgresRaw(url: string, schema: string): Promise<Raw> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  const lines = (node: PgNode): string[] => [
    [node["Node Type"], node["Relation Name"] && `on ${node["Relation Name"]}`, node["Index Name"]]
      .filter(Boolean)
      .join(" "),
    ...(node.Plans ?? []).flatMap(lines),
  ];
  return {
    run: async (text, parameters = []) => void (await client.query(text, parameters)),
    rows: async <T>(text: string, parameters: unknown[] = []) =>
      (await client.query(text, parameters)).rows as T[],
    async plan(query) {
      const result = await client.query(`explain (format json) ${query.sql}`, [...query.parameters]);
      const [explained] = (result.rows[0] as { "QUERY PLAN": Array<{ Plan: PgNode }> })["QUERY PLAN"];
      return explained ? lines(explained.Plan) : [];
    },
    close: () => client.end(),
  };
}

/** Copies every record of the organization `times` times (new ids, display ids, labels and references). */
async function multiply(
  raw: Raw,
  dialect: "sqlite" | "postgres",
  orgId: string,
  times: number,
): Promise<void> {
  const numbers =
    dialect === "sqlite"
      ? "with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)"
      : "with n(i) as (select generate_series(1, $1::int))";
  const p = dialect === "sqlite" ? "?" : "$2";
  await raw.run(
    `${numbers}
     insert into records (kind, id, display_id, org_id, subtype, parent_id, label, external_ref, created_date,
       modified_date, object_version, data)
     select kind, id || '.' || i, display_id || '.' || i, org_id, subtype, parent_id, label || ' ' || i,
       external_ref || ' ' || i, created_date, modified_date, object_version, data
     from records, n where org_id = ${p}`,
    [times, orgId],
  );
}

/**
 * The tables the lists read. Dev users are a handful of people per organization, paged in memory (see
 * pageInMemory): reading their table whole is the right plan, so only `records` has its plans checked.
 */
const LIST_TABLES = /"(records|dev_users|sandboxes|sandbox_requests)"/;

/**
 * The plan steps a list query must not take: a whole scan of its table, or a sort in memory, unless the
 * plan looks the rows up by id (one row) or, sorted by a date no index of a parent orders its children by
 * (modified), by parent. A query that finds a record's children (a timeline) must find them through the
 * parent index: with the created-date index it walks the whole family (the fault of issue 23).
 */
function faults(query: Logged, plan: string[], sort: string[] | undefined): string[] {
  const byParent = plan.some((step) => /records_parent_(created|modified)/.test(step));
  const byId = plan.some((step) => /\(id=\?\)|records_id_key|sqlite_autoindex_records/.test(step));
  const sortAllowed = byId || (byParent && sort?.[0]?.startsWith("modified_date") === true);
  const found = plan.filter(
    (step) =>
      /^SCAN records\b/.test(step) ||
      /^Seq Scan on records\b/.test(step) ||
      (!sortAllowed && /^USE TEMP B-TREE FOR (ORDER BY|RIGHT PART OF ORDER BY)/.test(step)) ||
      (!sortAllowed && /^(Incremental )?Sort\b/.test(step)),
  );
  if (/"records"\."parent_id" = /.test(query.sql) && !byParent) found.push("not through the parent index");
  return found;
}

function describePlans(database: "sqlite" | "postgres") {
  let store: Store;
  let raw: Raw;
  let call: Call;
  let cleanup: () => Promise<void>;
  const logged: Logged[] = [];
  const inputs: Record<string, Record<string, unknown>> = {};
  let rows = 0;

  beforeAll(async () => {
    const log = (event: LogEvent) => {
      if (event.level === "query") logged.push({ sql: event.query.sql, parameters: event.query.parameters });
    };
    if (database === "sqlite") {
      const dir = mkdtempSync(join(tmpdir(), "workapi-plans-"));
      store = await openStore({ dataDir: dir, log });
      raw = sqliteRaw(join(dir, "workapi.sqlite"));
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const schema = randomSchema();
      store = await openStore({ databaseUrl: DATABASE_URL as string, postgresSchema: schema, log });
      raw = await postgresRaw(DATABASE_URL as string, schema);
      cleanup = () => dropPostgresSchema(DATABASE_URL as string, schema);
    }
    const { org, admin } = await bootstrap(store);
    await seed(store, org, admin, { works: 40 });
    const count = async (where = "") =>
      Number(
        (
          await raw.rows<{ n: number }>(`select count(*) as n from records ${where}`, where ? [org.id] : [])
        )[0]?.n,
      );
    const seeded = await count(database === "sqlite" ? "where org_id = ?" : "where org_id = $1");
    await multiply(raw, database, org.id, Math.ceil(TARGET_ROWS / seeded));
    rows = await count();
    await store.updateStatistics();
    const [owner] = await raw.rows<{ parent_id: string }>(
      "select parent_id from records where kind = 'timeline_entry' group by parent_id order by count(*) desc limit 1",
    );
    const [leaf] = await raw.rows<{ subtype: string }>(
      "select subtype from records where kind = 'custom_object' limit 1",
    );
    Object.assign(inputs, { object: owner?.parent_id, leaf_type: leaf?.subtype });
    const operations = new Map(
      theContract()
        .operations.filter((operation) => operation.method === "POST")
        .map((operation) => [operation.name, operation] as const),
    );
    call = seedCaller(store, org, admin, operations, theContract().scopes);
    // The journal is listed per sandbox: one to list.
    const made = (await (call as unknown as (name: string, input: object) => Promise<unknown>)(
      "sandboxes.create",
      {},
    )) as { sandbox: { id: string } };
    Object.assign(inputs, { id: made.sandbox.id });
  }, 120_000);

  afterAll(async () => {
    await raw?.close();
    await store?.close();
    await cleanup?.();
  });

  const lists = theContract().operations.filter(
    (operation) => operation.pagination && operation.method === "POST",
  );

  it(`holds over ${TARGET_ROWS.toLocaleString("en")} records`, () => {
    expect(Number(rows)).toBeGreaterThan(TARGET_ROWS);
  });

  it.each(lists.map((operation) => operation.name))("%s reads through indexes", async (name) => {
    const operation = lists.find((candidate) => candidate.name === name);
    const required = operation ? requiredFields(name) : [];
    const base = Object.fromEntries(required.map((field) => [field, inputs[field]]));
    const problems: string[] = [];
    // Every list takes the page fields; their answers differ, and only the cursor is read here.
    const list = call as unknown as (
      name: string,
      input: object,
    ) => Promise<{ next_cursor?: string } | undefined>;
    for (const sort_by of SORTS) {
      logged.length = 0;
      const input = { ...base, limit: 20, ...(sort_by ? { sort_by } : {}) };
      const first = (await list(name, input).catch((error: Error) => {
        // A list that is not sorted by this date (dev users have no modified date), or takes no sort at all
        // (sandboxes and their journals, oldest first), is read in its other sorts.
        const text = `${error.message} ${(error as Error & { detail?: string }).detail ?? ""}`;
        if (sort_by && /Cannot sort by|'sort_by' is not accepted/.test(text)) return undefined;
        throw error;
      })) as { next_cursor?: string } | undefined;
      if (!first) continue;
      if (first.next_cursor) {
        await list(name, { ...input, cursor: first.next_cursor });
        await list(name, { ...input, cursor: first.next_cursor, mode: "before" });
      }
      const reads = logged.filter((query) => /^select\b/i.test(query.sql) && LIST_TABLES.test(query.sql));
      expect(reads.length, `${name} read nothing from its table`).toBeGreaterThan(0);
      for (const query of reads.filter((read) => read.sql.includes('"records"'))) {
        const plan = await raw.plan(query);
        const bad = faults(query, plan, sort_by);
        if (bad.length > 0)
          problems.push(`${sort_by ?? "default sort"}: ${query.sql}\n  plan: ${plan.join(" | ")}`);
      }
    }
    expect(problems).toEqual([]);
  });
}

/** The fields of an operation's input the contract requires. */
function requiredFields(name: string): string[] {
  const operation = theContract().operations.find(
    (candidate) => candidate.name === name && candidate.method === "POST",
  );
  const path = operation?.path ?? "";
  const spec = theContract().spec;
  const raw = (
    spec.paths[path] as { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }
  )?.post?.requestBody?.content["application/json"]?.schema;
  return raw === undefined ? [] : (resolveRef<{ required?: string[] }>(spec, raw).required ?? []);
}

describe("list query plans at 100,000+ records on SQLite", () => describePlans("sqlite"));
if (!DATABASE_URL) {
  console.warn("test/store/query-plans: DATABASE_URL is not set, so the PostgreSQL plans are not checked");
}
describe.skipIf(!DATABASE_URL)("list query plans at 100,000+ records on PostgreSQL", () =>
  describePlans("postgres"),
);
