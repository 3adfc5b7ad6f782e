// What authenticates a request, read in one query: the token, its organization and its subject, through the
// unique index on the token's hash. The store compiles the query once; only the hash changes per request.
import type { Compilable, Kysely } from "kysely";
import type { Changes, Snapshot } from "./changes.js";
import type { CompiledQueries } from "./compiled-queries.js";
import { toDevUser, toOrg, toToken } from "./rows.js";
import type { DB, TokensTable } from "./tables.js";
import type { Credentials, Org } from "./types.js";

/** A row of the credentials query: the token's columns, then its organization's and its subject's (null when gone). */
export type CredentialsRow = TokensTable & {
  org_row_id: string | null;
  org_number: number | null;
  org_name: string | null;
  org_status: string | null;
  org_created_date: string | null;
  user_id: string | null;
  user_number: number | null;
  user_display_id: string | null;
  user_email: string | null;
  user_full_name: string | null;
  user_display_name: string | null;
  user_state: string | null;
  user_created_date: string | null;
};

/** The credentials query of `hash`, its one parameter. */
export function credentialsQuery(db: Kysely<DB>, hash: string): Compilable {
  return db
    .selectFrom("tokens")
    .leftJoin("orgs", "orgs.id", "tokens.org_id")
    .leftJoin("dev_users", (join) =>
      join.onRef("dev_users.id", "=", "tokens.subject").onRef("dev_users.org_id", "=", "tokens.org_id"),
    )
    .selectAll("tokens")
    .select([
      "orgs.id as org_row_id",
      "orgs.number as org_number",
      "orgs.name as org_name",
      "orgs.status as org_status",
      "orgs.created_date as org_created_date",
      "dev_users.id as user_id",
      "dev_users.number as user_number",
      "dev_users.display_id as user_display_id",
      "dev_users.email as user_email",
      "dev_users.full_name as user_full_name",
      "dev_users.display_name as user_display_name",
      "dev_users.state as user_state",
      "dev_users.created_date as user_created_date",
    ])
    .where("tokens.hash", "=", hash);
}

/** The credentials of `hash`, read with its query compiled once. */
export async function readCredentials(
  queries: CompiledQueries,
  db: Kysely<DB>,
  hash: string,
): Promise<Credentials | undefined> {
  const [row] = await queries.run<CredentialsRow>("credentials", [hash], () => credentialsQuery(db, hash));
  return row && toCredentials(row);
}

export function toCredentials(row: CredentialsRow): Credentials {
  return {
    token: toToken(row),
    ...(row.org_row_id === null
      ? {}
      : {
          org: toOrg({
            id: row.org_row_id,
            number: row.org_number as number,
            name: row.org_name as string,
            status: row.org_status as Org["status"],
            created_date: row.org_created_date as string,
          }),
        }),
    ...(row.user_id === null
      ? {}
      : {
          user: toDevUser({
            id: row.user_id,
            org_id: row.org_id,
            number: row.user_number as number,
            display_id: row.user_display_id as string,
            email: row.user_email as string,
            full_name: row.user_full_name as string,
            display_name: row.user_display_name as string,
            state: row.user_state as string,
            created_date: row.user_created_date as string,
          }),
        }),
  };
}

/**
 * Credentials by token hash, kept only while no token, organization or user has changed: the count of
 * credential changes (see Changes), which triggers move in the same transaction as every insert, update or
 * delete of a token, organization or user, is read once per request; only when it moved is everything kept
 * dropped. So a revocation or deactivation fails the very next request in every process sharing the
 * database, writes to other records keep the cache, and expiry is checked on every request from the kept
 * token. No time-based expiry is involved.
 */
export class CredentialsCache {
  readonly #entries = new Map<string, Credentials>();
  #credentialVersion: number | undefined;

  constructor(
    private readonly changes: Changes,
    private readonly size = 10_000,
  ) {}

  /**
   * The credentials of `hash`: kept ones while credentials are unchanged, else `read` (and kept). `at`: what
   * is committed, as read during the caller's request (read now when not given).
   */
  async through(
    hash: string,
    read: () => Promise<Credentials | undefined>,
    at?: Snapshot,
  ): Promise<Credentials | undefined> {
    const snapshot = at ?? (await this.changes.now());
    if (snapshot.credentials !== this.#credentialVersion) {
      this.#entries.clear();
      this.#credentialVersion = snapshot.credentials;
    }
    const kept = this.#entries.get(hash);
    if (kept) return kept;
    const credentials = await read();
    // Read after `snapshot`, they are at least as new as its count: kept under that count, unless another
    // request has meanwhile moved the cache to another count (they could then be older than it), or
    // something was committed meanwhile (then they could be newer, and the next request would miss them).
    if (
      credentials &&
      this.#credentialVersion === snapshot.credentials &&
      !this.changes.movedSince(snapshot)
    ) {
      if (this.#entries.size >= this.size) this.#entries.clear();
      this.#entries.set(hash, credentials);
    }
    return credentials;
  }
}
