// An organization's rows (its users, counters, records and tokens) read out of one store and written into an
// empty organization of another: the sandbox template's data set is seeded in a SQLite store in memory and
// written into PostgreSQL this way (see demoTemplate in ../operations/sandboxes.ts). Seeding it there ran
// each of its 1,100 records' statements as a round trip to PostgreSQL (2.2-2.3 s); written here, they are a
// few multi-row inserts. Within one database, SandboxStore.copyOrg copies in SQL instead.
import type { SqlContext } from "./sql-context.js";
import type { DB } from "./tables.js";
import type { Org, OrgRows } from "./types.js";

/** The rows of organization `org`. */
export async function readOrgRows({ db }: SqlContext, org: Org): Promise<OrgRows> {
  const of = (table: "dev_users" | "counters" | "tokens") =>
    db.selectFrom(table).selectAll().where("org_id", "=", org.id).execute();
  const records = await db
    .selectFrom("records")
    .selectAll()
    .where("org_id", "=", org.id)
    .orderBy("seq")
    .execute();
  return {
    number: org.number,
    devUsers: await of("dev_users"),
    counters: await of("counters"),
    records: records.map(({ seq: _, data, ...row }) => ({
      ...row,
      // Text on SQLite; PostgreSQL's jsonb comes back parsed.
      data: typeof data === "string" ? data : JSON.stringify(data),
    })),
    tokens: await of("tokens"),
  };
}

/** Rows per insert statement: far under either database's limit of bound parameters (18 columns at most). */
const ROWS_PER_INSERT = 1000;

/**
 * Writes `rows` into the empty organization `to`, each id (and each id inside a document) moved to `to`'s
 * number, as SandboxStore.copyOrg does; tokens' hashes are no secret's, so nobody can use them.
 */
export async function writeOrgRows({ db }: SqlContext, rows: OrgRows, to: Org): Promise<void> {
  const [a, b] = [`devo/${rows.number}:`, `devo/${to.number}:`];
  const [c, d] = [`devo/${rows.number}"`, `devo/${to.number}"`];
  const moved = (value: unknown) => (typeof value === "string" ? value.replaceAll(a, b) : value);
  const insert = async <T extends keyof DB>(table: T, values: Array<Record<string, unknown>>) => {
    for (let at = 0; at < values.length; at += ROWS_PER_INSERT) {
      const chunk = values.slice(at, at + ROWS_PER_INSERT);
      // The rows are the table's own, read from a store of the same schema.
      await db
        .insertInto(table)
        .values(chunk as never)
        .execute();
    }
  };
  await insert(
    "dev_users",
    rows.devUsers.map((row) => ({ ...row, id: moved(row.id), org_id: to.id })),
  );
  await insert(
    "counters",
    rows.counters.map((row) => ({ ...row, org_id: to.id })),
  );
  await insert(
    "records",
    rows.records.map((row) => ({
      ...row,
      id: moved(row.id),
      org_id: to.id,
      parent_id: moved(row.parent_id),
      data: String(row.data).replaceAll(a, b).replaceAll(c, d),
    })),
  );
  await insert(
    "tokens",
    rows.tokens.map((row) => ({
      ...row,
      id: moved(row.id),
      org_id: to.id,
      subject: moved(row.subject),
      hash: `copied:${moved(row.id)}`,
      created_by: moved(row.created_by),
      modified_by: moved(row.modified_by),
    })),
  );
}
