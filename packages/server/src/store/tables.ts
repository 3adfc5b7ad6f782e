// The tables of the store as Kysely sees them (the migrations of ./migrations.ts create them). Their columns are
// the fields of what the store answers (./types.ts), written there once; a row adds what only the table keeps.
import type { ColumnType, Generated } from "kysely";
import type { DevUser, Org, StoredRecord, TokenRecord } from "./types.js";

/** An organization's row: its columns are the Org's. */
export type OrgsTable = Org;

interface CountersTable {
  org_id: string;
  prefix: string;
  value: number;
}

/** A dev user's row: the DevUser's fields (but its constant `type`) and its number in the organization. */
export interface DevUsersTable extends Omit<DevUser, "type"> {
  number: number;
}

/** A token's row: the TokenRecord's fields and its number in the organization, its scopes as JSON text. */
export interface TokensTable extends Omit<TokenRecord, "scopes"> {
  number: number;
  /** JSON array of strings. */
  scopes: string;
}

/** A record's row: the StoredRecord's indexed columns, its insertion order, and its document as JSON. */
interface RecordsTable extends Omit<StoredRecord, "data"> {
  /** Insertion order; the unique tie-breaker of every sort. PostgreSQL returns its bigint as a string. */
  seq: Generated<number | string>;
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
