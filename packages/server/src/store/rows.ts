// Rows to objects, and database errors to StoreErrors.
import type { DevUsersTable, OrgsTable, RecordRow, TokensTable } from "./tables.js";
import {
  type BaseFields,
  type DevUser,
  type Org,
  type StoredRecord,
  StoreError,
  type TokenRecord,
} from "./types.js";

export function now(): string {
  return new Date().toISOString();
}

/** `don:...` ids match the id column; anything else is taken as a display id. */
export function idColumn(idOrDisplayId: string): "id" | "display_id" {
  return idOrDisplayId.startsWith("don:") ? "id" : "display_id";
}

export function toOrg(row: OrgsTable): Org {
  return {
    number: Number(row.number),
    id: row.id,
    name: row.name,
    status: row.status,
    created_date: row.created_date,
  };
}

export function toDevUser(row: DevUsersTable): DevUser {
  return {
    type: "dev_user",
    id: row.id,
    display_id: row.display_id,
    display_name: row.display_name,
    email: row.email,
    full_name: row.full_name,
    state: row.state,
    org_id: row.org_id,
    created_date: row.created_date,
  };
}

export function toToken(row: TokensTable): TokenRecord {
  return {
    id: row.id,
    display_id: row.display_id,
    org_id: row.org_id,
    subject: row.subject,
    hash: row.hash,
    token_hint: row.token_hint,
    requested_token_type: row.requested_token_type,
    scopes: JSON.parse(row.scopes) as string[],
    client_id: row.client_id,
    status: row.status,
    issued_at: row.issued_at,
    expires_at: row.expires_at,
    created_by: row.created_by,
    created_date: row.created_date,
    modified_by: row.modified_by,
    modified_date: row.modified_date,
    object_version: Number(row.object_version),
  };
}

export function toRecord<T extends object>(row: RecordRow): StoredRecord<T> {
  const data = typeof row.data === "string" ? JSON.parse(row.data) : row.data;
  return {
    kind: row.kind,
    id: row.id,
    display_id: row.display_id,
    org_id: row.org_id,
    subtype: row.subtype,
    parent_id: row.parent_id,
    label: row.label,
    external_ref: row.external_ref,
    created_date: row.created_date,
    modified_date: row.modified_date,
    object_version: Number(row.object_version),
    data: data as T & BaseFields,
  };
}

/** Awaits a write, turning a unique-constraint violation into StoreError("conflict") with the field. */
export async function rethrowConflict<R>(write: Promise<R>): Promise<R> {
  try {
    return await write;
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
}

function conflictOf(error: unknown): StoreError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  let what: string;
  if (code === "23505")
    what = String(constraint ?? ""); // PostgreSQL: the index name
  else if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    what = error.message; // SQLite: "UNIQUE constraint failed: records.org_id, records.kind, ..."
  } else return undefined;
  if (what.includes("external_ref")) {
    return new StoreError("conflict", "A record with this external_ref already exists", "external_ref");
  }
  if (what.includes("tag_name") || what.includes("records.label")) {
    return new StoreError("conflict", "A tag with this name already exists", "name");
  }
  if (what.includes("hash"))
    return new StoreError("conflict", "A token with this hash already exists", "hash");
  return new StoreError("conflict", "The record already exists");
}
