// Organizations and their dev users. The create functions run inside a transaction (they take a number from
// a counter, then insert).
import { sql } from "kysely";
import { DEV_USER_IDS } from "./record-ids.js";
import { idColumn, now, toDevUser, toOrg } from "./rows.js";
import { nextNumber, type SqlContext } from "./sql-context.js";
import type { DevUsersTable } from "./tables.js";
import { type DevUser, type Org, StoreError } from "./types.js";

const ORG_COUNTER = { orgId: "", prefix: "ORG" };

export async function createOrg(tx: SqlContext, name: string): Promise<Org> {
  const number = await nextOrgNumber(tx);
  const org: Org = {
    number,
    id: `don:identity:workapi:devo/${number}`,
    name,
    status: "active",
    created_date: now(),
  };
  await tx.db.insertInto("orgs").values(org).execute();
  return org;
}

/**
 * The next organization's number. On PostgreSQL from the sequence `org_numbers` (migration
 * 0011_postgres_changes_at_commit), which no transaction holds: a counter's row stays locked until its
 * transaction commits, and organizations are made in long transactions (a seeded sandbox copies thousands
 * of rows), which then ran one at a time. A number taken by a transaction rolled back is not used again.
 */
async function nextOrgNumber(tx: SqlContext): Promise<number> {
  if (tx.dialect !== "postgres") return nextNumber(tx, ORG_COUNTER.orgId, ORG_COUNTER.prefix);
  const { rows } = await sql<{ n: string }>`select nextval('org_numbers') as n`.execute(tx.db);
  return Number(rows[0]?.n);
}

export async function getOrg({ db }: SqlContext, id: string): Promise<Org | undefined> {
  const row = await db.selectFrom("orgs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toOrg(row);
}

export async function listOrgs({ db }: SqlContext): Promise<Org[]> {
  const rows = await db.selectFrom("orgs").selectAll().orderBy("number").execute();
  return rows.map(toOrg);
}

export async function setOrgStatus({ db }: SqlContext, id: string, status: Org["status"]): Promise<void> {
  const result = await db.updateTable("orgs").set({ status }).where("id", "=", id).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new StoreError("not_found", `Organization ${id} not found`);
}

export async function createDevUser(
  tx: SqlContext,
  org: Org,
  fields: { email: string; full_name: string; display_name?: string },
): Promise<DevUser> {
  const number = await nextNumber(tx, org.id, DEV_USER_IDS.prefix);
  const row: DevUsersTable = {
    id: `don:core:workapi:devo/${org.number}:${DEV_USER_IDS.idType}/${number}`,
    org_id: org.id,
    number,
    display_id: `${DEV_USER_IDS.prefix}-${number}`,
    email: fields.email,
    full_name: fields.full_name,
    display_name: fields.display_name ?? fields.email.split("@")[0] ?? fields.email,
    state: "active",
    created_date: now(),
  };
  await tx.db.insertInto("dev_users").values(row).execute();
  return toDevUser(row);
}

export async function getDevUser(ctx: SqlContext, orgId: string, id: string): Promise<DevUser | undefined> {
  const column = idColumn(id);
  const [row] = await ctx.compiled.run<DevUsersTable>(`dev user by ${column}`, [orgId, id], () =>
    ctx.db.selectFrom("dev_users").selectAll().where("org_id", "=", orgId).where(column, "=", id),
  );
  return row && toDevUser(row);
}

export async function listDevUsers({ db }: SqlContext, orgId: string): Promise<DevUser[]> {
  const rows = await db
    .selectFrom("dev_users")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("number")
    .execute();
  return rows.map(toDevUser);
}
