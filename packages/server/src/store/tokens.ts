// Tokens: issued, looked up by hash or id, listed per subject, revoked. (What a request authenticates with,
// the token with its organization and subject, is ./credentials.ts's one query.) The create and revoke
// functions run inside a transaction.
import { TOKEN_IDS } from "./record-ids.js";
import { idColumn, now, rethrowConflict, toToken } from "./rows.js";
import { nextNumber, type SqlContext } from "./sql-context.js";
import type { TokensTable } from "./tables.js";
import { type Actor, StoreError, type TokenRecord } from "./types.js";

export type NewToken = Pick<
  TokenRecord,
  "subject" | "hash" | "token_hint" | "requested_token_type" | "scopes" | "client_id" | "expires_at"
>;

export async function createToken(tx: SqlContext, actor: Actor, fields: NewToken): Promise<TokenRecord> {
  const number = await nextNumber(tx, actor.orgId, TOKEN_IDS.prefix);
  const time = now();
  const row: TokensTable = {
    id: `don:core:workapi:devo/${actor.orgNumber}:${TOKEN_IDS.idType}/${number}`,
    org_id: actor.orgId,
    number,
    display_id: `${TOKEN_IDS.prefix}-${number}`,
    subject: fields.subject,
    hash: fields.hash,
    token_hint: fields.token_hint,
    requested_token_type: fields.requested_token_type,
    scopes: JSON.stringify(fields.scopes),
    client_id: fields.client_id,
    status: "active",
    issued_at: time,
    expires_at: fields.expires_at,
    created_by: actor.user.id,
    created_date: time,
    modified_by: actor.user.id,
    modified_date: time,
    object_version: 1,
  };
  await rethrowConflict(tx.db.insertInto("tokens").values(row).execute());
  return toToken(row);
}

export async function findTokenByHash({ db }: SqlContext, hash: string): Promise<TokenRecord | undefined> {
  // On every request: a single lookup through the unique index on hash.
  const row = await db.selectFrom("tokens").selectAll().where("hash", "=", hash).executeTakeFirst();
  return row && toToken(row);
}

export async function getToken(
  { db }: SqlContext,
  orgId: string,
  id: string,
): Promise<TokenRecord | undefined> {
  const row = await db
    .selectFrom("tokens")
    .selectAll()
    .where("org_id", "=", orgId)
    .where(idColumn(id), "=", id)
    .executeTakeFirst();
  return row && toToken(row);
}

export async function listTokens(
  { db }: SqlContext,
  orgId: string,
  filter: { subject: string; requested_token_type?: string; client_id?: string },
): Promise<TokenRecord[]> {
  let query = db
    .selectFrom("tokens")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("subject", "=", filter.subject);
  if (filter.requested_token_type !== undefined) {
    query = query.where("requested_token_type", "=", filter.requested_token_type);
  }
  if (filter.client_id !== undefined) query = query.where("client_id", "=", filter.client_id);
  const rows = await query.orderBy("number").execute();
  return rows.map(toToken);
}

export async function revokeToken(tx: SqlContext, actor: Actor, id: string): Promise<TokenRecord> {
  const row = await tx.db
    .selectFrom("tokens")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where(idColumn(id), "=", id)
    .$if(tx.dialect === "postgres", (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new StoreError("not_found", `Token ${id} not found`);
  if (row.status === "revoked") return toToken(row); // already revoked: nothing changes
  const changes = {
    status: "revoked" as const,
    modified_by: actor.user.id,
    modified_date: now(),
    object_version: row.object_version + 1,
  };
  await tx.db.updateTable("tokens").set(changes).where("id", "=", row.id).execute();
  return toToken({ ...row, ...changes });
}
