// The tables of the store as Kysely sees them (the migrations of ./migrations.ts create them).
import type { ColumnType, Generated } from "kysely";
import type { Org, TokenRecord } from "./types.js";

export interface OrgsTable {
  id: string;
  number: number;
  name: string;
  status: Org["status"];
  created_date: string;
}

interface CountersTable {
  org_id: string;
  prefix: string;
  value: number;
}

export interface DevUsersTable {
  id: string;
  org_id: string;
  number: number;
  display_id: string;
  email: string;
  full_name: string;
  display_name: string;
  state: string;
  created_date: string;
}

export interface TokensTable {
  id: string;
  org_id: string;
  number: number;
  display_id: string;
  subject: string;
  hash: string;
  token_hint: string;
  requested_token_type: string;
  /** JSON array of strings. */
  scopes: string;
  client_id: string | null;
  status: TokenRecord["status"];
  issued_at: string;
  expires_at: string | null;
  created_by: string;
  created_date: string;
  modified_by: string;
  modified_date: string;
  object_version: number;
}

interface RecordsTable {
  /** Insertion order; the unique tie-breaker of every sort. PostgreSQL returns its bigint as a string. */
  seq: Generated<number | string>;
  kind: string;
  id: string;
  display_id: string;
  org_id: string;
  subtype: string | null;
  parent_id: string | null;
  label: string;
  external_ref: string | null;
  created_date: string;
  modified_date: string;
  object_version: number;
  /** JSON text written; read back as text (SQLite) or as a parsed object (PostgreSQL jsonb). */
  data: ColumnType<unknown, string, string>;
}

export interface DB {
  orgs: OrgsTable;
  counters: CountersTable;
  dev_users: DevUsersTable;
  tokens: TokensTable;
  records: RecordsTable;
}

export type RecordRow = {
  [K in keyof RecordsTable]: RecordsTable[K] extends ColumnType<infer S, unknown, unknown>
    ? S
    : RecordsTable[K];
};
