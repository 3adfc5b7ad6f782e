// Sandboxes (organizations made for one test suite each), their request journals, and the organization the
// demo data set is loaded into once so that a seeded sandbox is a copy of it. Everything lives in the
// database, so every server process on it serves the same sandboxes. The tables are migration
// 0010_sandboxes (./sandbox-migration.ts); they are typed here, beside the store's own tables.
import { type Generated, type Kysely, type SelectQueryBuilder, sql } from "kysely";
import { decodeCursor, encodeCursor, listHash } from "./cursors.js";
import { readOrgRows, writeOrgRows } from "./org-rows.js";
import { now, toDevUser, toOrg } from "./rows.js";
import type { SqlContext } from "./sql-context.js";
import type { DB, DevUsersTable } from "./tables.js";
import type {
  DevUser,
  JournalRow,
  NewJournalEntry,
  Org,
  OrgRows,
  PageOf,
  PageRequest,
  SandboxQueries,
  SandboxRow,
} from "./types.js";

// The rows' types are the store interface's (./types.ts), which this class implements; named here too for its callers.
export type { JournalRow, PageRequest, SandboxRow };

type TemplatesTable = {
  name: string;
  org_id: string;
};

type SparesTable = {
  org_id: string;
  template: string;
};

type SandboxTables = {
  sandboxes: SandboxRow & { org_number: number };
  sandbox_requests: Omit<JournalRow, "seq"> & { seq: Generated<number | string> };
  sandbox_templates: TemplatesTable;
  sandbox_spares: SparesTable;
};

/**
 * The range of `seq` each template organization's records hold, by its id: a template never changes once
 * made, so it is read once per process. See copyOrg.
 */
const templateRanges = new Map<string, { first: number; last: number }>();

/** The sandbox queries, on the store's connection or transaction. */
export class SandboxStore implements SandboxQueries {
  readonly #ctx: SqlContext;
  readonly #db: Kysely<DB & SandboxTables>;

  constructor(ctx: SqlContext) {
    this.#ctx = ctx;
    this.#db = ctx.db.withTables<SandboxTables>();
  }

  async insert(row: SandboxRow & { org_number: number }): Promise<void> {
    await this.#db.insertInto("sandboxes").values(row).execute();
  }

  /** The sandbox whose organization is `orgId` (whoever made it), if that organization is a sandbox. */
  async byOrg(orgId: string): Promise<SandboxRow | undefined> {
    return this.#db
      .selectFrom("sandboxes")
      .select(["org_id", "owner_org_id", "name", "seeded", "created_date", "expires_at"])
      .where("org_id", "=", orgId)
      .executeTakeFirst();
  }

  /** How many sandboxes are live (not past their expiry), in every organization. */
  async countLive(at = now()): Promise<number> {
    const row = await this.#db
      .selectFrom("sandboxes")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("expires_at", ">", at)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The live sandboxes `ownerOrgId` made, oldest first, one page. */
  async list(ownerOrgId: string, page: PageRequest, at = now()): Promise<PageOf<SandboxRow>> {
    const hash = listHash("sandboxes", ownerOrgId, []);
    const query = this.#db
      .selectFrom("sandboxes")
      .selectAll()
      .where("owner_org_id", "=", ownerOrgId)
      .where("expires_at", ">", at);
    const rows = await this.#keyset(query, "org_number", hash, page);
    return pageOf(rows, page, hash, (row) => Number(row.org_number));
  }

  /** The sandboxes past their expiry (at most `limit`). */
  async expired(limit: number, at = now()): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("sandboxes")
      .select("org_id")
      .where("expires_at", "<=", at)
      .orderBy("expires_at")
      .limit(limit)
      .execute();
    return rows.map((row) => row.org_id);
  }

  /**
   * Deletes an organization and everything of it: records, tokens, users, counters, its journal and its
   * sandbox entry. Deleting rows that are already gone (another process got there first) is no error.
   */
  async deleteOrg(orgId: string): Promise<void> {
    await this.#db.deleteFrom("sandbox_requests").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("records").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("tokens").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("dev_users").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("counters").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("sandboxes").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("sandbox_spares").where("org_id", "=", orgId).execute();
    await this.#db.deleteFrom("orgs").where("id", "=", orgId).execute();
  }

  /** Adds a request to a sandbox's journal and drops its oldest past `keep`. */
  async journal(entry: NewJournalEntry, keep: number): Promise<void> {
    await this.#db.insertInto("sandbox_requests").values(entry).execute();
    const oldestKept = await this.#db
      .selectFrom("sandbox_requests")
      .select("seq")
      .where("org_id", "=", entry.org_id)
      .orderBy("seq", "desc")
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (oldestKept) {
      await this.#db
        .deleteFrom("sandbox_requests")
        .where("org_id", "=", entry.org_id)
        .where("seq", "<", oldestKept.seq)
        .execute();
    }
  }

  /** One page of a sandbox's journal, oldest first, optionally of one operation. */
  async requests(
    orgId: string,
    operation: string | undefined,
    page: PageRequest,
  ): Promise<PageOf<JournalRow>> {
    const hash = listHash("sandbox_requests", { orgId, operation: operation ?? null }, []);
    const ofOrg = this.#db.selectFrom("sandbox_requests").selectAll().where("org_id", "=", orgId);
    const query = operation === undefined ? ofOrg : ofOrg.where("operation", "=", operation);
    const rows = await this.#keyset(query, "seq", hash, page);
    return pageOf(rows, page, hash, (row) => Number(row.seq));
  }

  /**
   * Rows of `query` ordered by the integer column `order`, one page from the cursor (of the list `hash`) in
   * the direction of `mode`, in ascending order, with one row more than the page to tell whether more lie
   * that way.
   */
  async #keyset<D, T extends keyof D, O>(
    query: SelectQueryBuilder<D, T, O>,
    order: string,
    hash: string,
    page: PageRequest,
  ): Promise<O[]> {
    const from = page.cursor ? decodeCursor(page.cursor, hash, []).seq : undefined;
    const before = page.mode === "before";
    const column = sql.ref(order);
    const bounded =
      from === undefined
        ? query
        : query.where(sql<boolean>`${column} ${sql.raw(before ? "<" : ">")} ${from}`);
    const rows = await bounded
      .orderBy(sql`${column} ${sql.raw(before ? "desc" : "asc")}`)
      .limit(page.limit + 1)
      .execute();
    return (before ? rows.reverse() : rows) as O[];
  }

  /** The organization the demo data set is loaded into for copies, under `name`, if it was made. */
  async template(name: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom("sandbox_templates")
      .select("org_id")
      .where("name", "=", name)
      .executeTakeFirst();
    return row?.org_id;
  }

  async setTemplate(name: string, orgId: string): Promise<void> {
    await this.#db.insertInto("sandbox_templates").values({ name, org_id: orgId }).execute();
  }

  /** Keeps the organization `orgId`, a copy of the template `template`, as a spare seeded sandbox. */
  async addSpare(orgId: string, template: string): Promise<void> {
    await this.#db.insertInto("sandbox_spares").values({ org_id: orgId, template }).execute();
  }

  /** How many spares of the template `template` are kept. */
  async countSpares(template: string): Promise<number> {
    const row = await this.#db
      .selectFrom("sandbox_spares")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("template", "=", template)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The spares of templates other than `template` (an earlier release's data set), at most `limit`. */
  async staleSpares(template: string, limit: number): Promise<string[]> {
    const rows = await this.#db
      .selectFrom("sandbox_spares")
      .select("org_id")
      .where("template", "<>", template)
      .limit(limit)
      .execute();
    return rows.map((row) => row.org_id);
  }

  /**
   * Takes a spare of the template `template`, if one is kept: it is a spare no more, and its organization is
   * renamed `name` and made active. Concurrent takers never get the same one (on PostgreSQL a spare another
   * transaction is taking is skipped rather than waited for; SQLite has one writer).
   */
  async takeSpare(template: string, name: string): Promise<Org | undefined> {
    const db = this.#ctx.db;
    const pg = this.#ctx.dialect === "postgres";
    const { rows } = await sql<{ org_id: string }>`delete from sandbox_spares where org_id = (
        select org_id from sandbox_spares where template = ${template} order by org_id limit 1
        ${pg ? sql`for update skip locked` : sql``}
      ) returning org_id`.execute(db);
    const orgId = rows[0]?.org_id;
    if (orgId === undefined) return undefined;
    const created_date = now();
    await db
      .updateTable("orgs")
      .set({ name, status: "active", created_date })
      .where("id", "=", orgId)
      .execute();
    const org = await db.selectFrom("orgs").selectAll().where("id", "=", orgId).executeTakeFirstOrThrow();
    return toOrg(org);
  }

  /** The first user of the organization `orgId` (a copy's admin: see copyOrg). */
  async firstUser(orgId: string): Promise<DevUser> {
    const first = await this.#ctx.db
      .selectFrom("dev_users")
      .selectAll()
      .where("org_id", "=", orgId)
      .orderBy("number")
      .executeTakeFirstOrThrow();
    return toDevUser(first as DevUsersTable);
  }

  /**
   * Copies everything of organization `from` into the empty organization `to`: users, counters, records and
   * tokens, each id (and each id inside a record's document) moved to `to`'s number, in one statement each.
   * Copied tokens' secrets were never shown, and their hashes are no token's, so nobody can use them.
   * Answers the copy of `from`'s first user.
   */
  async copyOrg(from: Org, to: Org): Promise<DevUser> {
    const db = this.#ctx.db;
    const pg = this.#ctx.dialect === "postgres";
    const [a, b] = [`devo/${from.number}:`, `devo/${to.number}:`];
    const [c, d] = [`devo/${from.number}"`, `devo/${to.number}"`];
    const moved = (column: string) => sql<string>`replace(${sql.ref(column)}, ${a}, ${b})`;
    const data = pg
      ? sql`replace(replace(data::text, ${a}, ${b}), ${c}, ${d})::jsonb`
      : sql`replace(replace(data, ${a}, ${b}), ${c}, ${d})`;
    await sql`insert into dev_users (id, org_id, number, display_id, email, full_name, display_name, state, created_date)
      select ${moved("id")}, ${to.id}, number, display_id, email, full_name, display_name, state, created_date
      from dev_users where org_id = ${from.id}`.execute(db);
    await sql`insert into counters (org_id, prefix, value)
      select ${to.id}, prefix, value from counters where org_id = ${from.id}`.execute(db);
    // The template's rows are read by their range of `seq` as well as their organization: the planner then
    // walks that range of the primary key in order whatever its statistics say. Gathered while the template
    // was most of the table, they made it scan the whole table for one organization (0.45 s of a 0.6 s copy
    // at 58,000 records).
    const range = await this.#templateRange(from.id);
    await sql`insert into records (kind, id, display_id, org_id, subtype, parent_id, label, external_ref,
        created_date, modified_date, object_version, data)
      select kind, ${moved("id")}, display_id, ${to.id}, subtype, ${moved("parent_id")}, label, external_ref,
        created_date, modified_date, object_version, ${data}
      from records where org_id = ${from.id} and seq between ${range.first} and ${range.last}
      order by seq`.execute(db);
    // A copied token's hash is no hash of a secret (a token's is hex): nothing authenticates as it.
    await sql`insert into tokens (id, org_id, number, display_id, subject, hash, token_hint, requested_token_type,
        scopes, client_id, status, issued_at, expires_at, created_by, created_date, modified_by, modified_date,
        object_version)
      select ${moved("id")}, ${to.id}, number, display_id, ${moved("subject")}, 'copied:' || ${moved("id")},
        token_hint, requested_token_type, scopes, client_id, status, issued_at, expires_at, ${moved("created_by")},
        created_date, ${moved("modified_by")}, modified_date, object_version
      from tokens where org_id = ${from.id}`.execute(db);
    return this.firstUser(to.id);
  }

  /** The range of `seq` of the records of the template organization `orgId` (see templateRanges). */
  async #templateRange(orgId: string): Promise<{ first: number; last: number }> {
    const known = templateRanges.get(orgId);
    if (known) return known;
    const row = await this.#db
      .selectFrom("records")
      .select((eb) => [eb.fn.min("seq").as("first"), eb.fn.max("seq").as("last")])
      .where("org_id", "=", orgId)
      .executeTakeFirst();
    const range = { first: Number(row?.first ?? 0), last: Number(row?.last ?? -1) };
    // An empty range is not kept: a template is read before its records are made only by a fault.
    if (range.last >= range.first) templateRanges.set(orgId, range);
    return range;
  }

  /** The rows of organization `org`, to be written into another store's (see ./org-rows.ts). */
  orgRows(org: Org): Promise<OrgRows> {
    return readOrgRows(this.#ctx, org);
  }

  /** Writes rows read out of another store into the empty organization `to` (see ./org-rows.ts). */
  writeOrgRows(rows: OrgRows, to: Org): Promise<void> {
    return writeOrgRows(this.#ctx, rows, to);
  }

  /** The planner's statistics after a bulk load, where a transaction may gather them (PostgreSQL). */
  async analyze(): Promise<void> {
    if (this.#ctx.dialect !== "postgres") return;
    for (const table of ["records", "tokens", "dev_users", "counters"]) {
      await sql`analyze ${sql.table(table)}`.execute(this.#ctx.db);
    }
  }
}

/** A page of ascending rows read one beyond the limit (see #keyset), with its cursors. */
function pageOf<Row>(rows: Row[], page: PageRequest, hash: string, seqOf: (row: Row) => number): PageOf<Row> {
  const before = page.mode === "before";
  const more = rows.length > page.limit;
  const items = more ? (before ? rows.slice(1) : rows.slice(0, page.limit)) : rows;
  const first = items[0];
  const last = items[items.length - 1];
  const cursor = (row: Row) => encodeCursor({ values: [], seq: seqOf(row) }, hash);
  const hasNext = before ? page.cursor !== undefined : more;
  const hasPrev = before ? more : page.cursor !== undefined;
  return {
    items,
    ...(last && hasNext ? { next_cursor: cursor(last) } : {}),
    ...(first && hasPrev ? { prev_cursor: cursor(first) } : {}),
  };
}
