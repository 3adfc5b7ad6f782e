// The storage interface of the reference server. One implementation (./database.ts) runs on SQLite
// (better-sqlite3, the embedded default) and on PostgreSQL (pg), both through Kysely; the same tests run
// against both. Everything is scoped to a dev organization: no method reads or writes across organizations.
import type { Changes, Snapshot } from "./changes.js";

/** A user summary as records carry it (`created_by`, `owned_by`...). */
export interface UserRef {
  type: "dev_user";
  id: string;
  display_id: string;
  display_name: string;
  email: string;
  full_name: string;
  state: string;
}

export interface Org {
  /** Small integer used inside ids (`don:core:workapi:devo/<number>:...`). */
  number: number;
  id: string;
  name: string;
  status: "active" | "deactivated";
  created_date: string;
}

export interface DevUser extends UserRef {
  org_id: string;
  created_date: string;
}

export interface TokenRecord {
  id: string;
  display_id: string;
  org_id: string;
  /** Id of the dev user the token acts as. */
  subject: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  hash: string;
  /** The last characters of the secret, to tell tokens apart. */
  token_hint: string;
  requested_token_type: string;
  scopes: string[];
  client_id: string | null;
  status: "active" | "revoked";
  issued_at: string;
  expires_at: string | null;
  created_by: string;
  created_date: string;
  modified_by: string;
  modified_date: string;
  object_version: number;
}

/** Who makes a change: the organization and the acting user. */
export interface Actor {
  orgId: string;
  orgNumber: number;
  user: UserRef;
}

/**
 * A record of any family. `data` is the full record as the API returns it (base fields included); the other
 * properties are the indexed copies the store filters and sorts on.
 */
export interface StoredRecord<T extends object = Record<string, unknown>> {
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
  data: T & BaseFields;
}

/** The JSON text of the documents this process's creates stored, by their record (see documentText). */
const storedTexts = new WeakMap<StoredRecord<object>, string>();

/** Notes the JSON text `record`'s document was stored as (the store's createRecord). */
export function noteDocumentText(record: StoredRecord<object>, text: string): void {
  storedTexts.set(record, text);
}

/**
 * `record.data` as JSON text: the text it was stored as when this process created it (a create's answer is
 * its document as stored, and printing it again was a twentieth of a create's work), else printed now.
 */
export function documentText(record: StoredRecord<object>): string {
  return storedTexts.get(record) ?? JSON.stringify(record.data);
}

export interface BaseFields {
  id: string;
  display_id: string;
  created_by: UserRef;
  created_date: string;
  modified_by: UserRef;
  modified_date: string;
  object_version: number;
}

export interface NewRecord<T extends object> {
  /** Record family (`work`, `part`, `tag`, `article`, `code_change`, ...). */
  kind: string;
  /** Type word inside the id (`issue`, `product`, `tag`...): `don:core:workapi:devo/<org>:<idType>/<n>`. */
  idType: string;
  /** Display id prefix (`ISS`, `PROD`, `TAG`...); numbers count up per organization and prefix. */
  prefix: string;
  subtype?: string | null;
  parent_id?: string | null;
  /** Name or title, for sorting and exact-name filters. */
  label?: string;
  external_ref?: string | null;
  /** The record's own fields; the store adds id, display_id and the base fields. */
  data: T;
}

/**
 * A filter over a family's records. `path` names an indexed column (`subtype`, `parent_id`, `label`,
 * `external_ref`, `created_date`, `modified_date`, `display_id`, `id`, `object_version`) or a dotted path into
 * `data` (`owned_by`, `stage.name`, `custom_fields.tnt__priority`).
 */
export type Filter =
  | { op: "and" | "or"; filters: Filter[] }
  | { op: "not"; filter: Filter }
  | { op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte"; path: string; value: string | number | boolean }
  | { op: "in"; path: string; values: Array<string | number | boolean> }
  /** The array at `path` has an element whose `key` (or the element itself, without `key`) is one of `values`. */
  | { op: "any"; path: string; key?: string; values: Array<string | number> }
  | { op: "exists"; path: string; exists: boolean };

export interface SortKey {
  path: string;
  direction: "asc" | "desc";
  /** How values compare (default `text`; ISO dates compare as text). */
  type?: "text" | "number";
}

export interface ListQuery {
  filter?: Filter;
  /** Sort keys, most significant first; the store appends a unique tie-breaker. Default: created_date asc. */
  sort?: SortKey[];
  cursor?: string;
  mode?: "after" | "before";
  limit: number;
}

export interface PageOf<Item> {
  items: Item[];
  next_cursor?: string;
  prev_cursor?: string;
}

export type Page<T extends object> = PageOf<StoredRecord<T>>;

/**
 * A record's identity and its stored document as JSON text, for an answer that sends the
 * document as it is stored instead of parsing and printing it again.
 */
export interface RecordJson {
  id: string;
  kind: string;
  subtype: string | null;
  json: string;
}

/** Failures the HTTP layer turns into typed errors. */
export class StoreError extends Error {
  constructor(
    readonly code: "not_found" | "conflict" | "bad_cursor" | "version_mismatch",
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "StoreError";
  }
}

export interface Credentials {
  token: TokenRecord;
  org?: Org;
  user?: DevUser;
}

export interface Store {
  readonly dialect: "sqlite" | "postgres";
  /**
   * What has been committed, for caches that must see every change at once (see ./changes.ts): on the root
   * store of a SQLite file or of PostgreSQL (an in-memory database and a transaction's store have none).
   */
  readonly changes?: Changes;
  /**
   * Runs `fn` in one transaction; every store call made through `tx` is part of it. `at`: the counts its
   * request read after it arrived, under which a PostgreSQL store may answer lookups from what it keeps
   * (./kept-records.ts).
   */
  transaction<R>(fn: (tx: Store) => Promise<R>, at?: Snapshot): Promise<R>;
  /**
   * On a transaction's store: waits until no transaction of any process holds the lock `name`, and holds it
   * until this transaction ends (e.g. "is there an organization? else create one" done exactly once).
   */
  holdLock(name: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Brings the query planner's statistics up to date where they are missing or stale (./statistics.ts): at
   * start, periodically, and after a bulk load such as the seed.
   */
  updateStatistics(): Promise<void>;
  /** The sandboxes and their journals (./sandboxes.ts), on this store's connection or transaction. */
  sandboxes(): SandboxQueries;

  // Organizations, users, tokens.
  createOrg(name: string): Promise<Org>;
  getOrg(id: string): Promise<Org | undefined>;
  listOrgs(): Promise<Org[]>;
  setOrgStatus(id: string, status: Org["status"]): Promise<void>;
  createDevUser(
    org: Org,
    fields: { email: string; full_name: string; display_name?: string },
  ): Promise<DevUser>;
  getDevUser(orgId: string, id: string): Promise<DevUser | undefined>;
  listDevUsers(orgId: string): Promise<DevUser[]>;
  createToken(
    actor: Actor,
    fields: Pick<
      TokenRecord,
      "subject" | "hash" | "token_hint" | "requested_token_type" | "scopes" | "client_id" | "expires_at"
    >,
  ): Promise<TokenRecord>;
  findTokenByHash(hash: string): Promise<TokenRecord | undefined>;
  /**
   * The token with this hash, with its organization and subject when they exist (one query). `at`: what is
   * committed (`changes.now()`), as read during the caller's request; read now when not given.
   */
  findCredentials(hash: string, at?: Snapshot): Promise<Credentials | undefined>;
  getToken(orgId: string, id: string): Promise<TokenRecord | undefined>;
  listTokens(
    orgId: string,
    filter: { subject: string; requested_token_type?: string; client_id?: string },
  ): Promise<TokenRecord[]>;
  revokeToken(actor: Actor, id: string): Promise<TokenRecord>;

  // Records of every family.
  createRecord<T extends object>(actor: Actor, record: NewRecord<T>): Promise<StoredRecord<T>>;
  /** Finds a record by id or display id; `kinds` limits the families searched. */
  getRecord<T extends object>(
    orgId: string,
    kinds: string[],
    idOrDisplayId: string,
  ): Promise<StoredRecord<T> | undefined>;
  /** getRecord's record with its document as JSON. */
  getRecordJson(orgId: string, kinds: string[], idOrDisplayId: string): Promise<RecordJson | undefined>;
  /**
   * Changes a record: `change` gets the current data and returns the new data (and, optionally, new indexed
   * copies). Bumps object_version, sets modified_by/modified_date. Throws StoreError("not_found").
   */
  updateRecord<T extends object>(
    actor: Actor,
    kind: string,
    id: string,
    change: (current: StoredRecord<T>) => {
      data: T;
      label?: string;
      subtype?: string | null;
      parent_id?: string | null;
      external_ref?: string | null;
    },
  ): Promise<StoredRecord<T>>;
  /** Deletes a record; false when it did not exist. */
  deleteRecord(actor: Actor, kind: string, id: string): Promise<boolean>;
  /**
   * One page of a family's records, keyset-paginated: the cost does not grow with the page's depth. The cursor
   * is opaque and bound to the kind, filter and sort it came from (another filter or sort: StoreError
   * "bad_cursor"). `next_cursor`/`prev_cursor` are left out when nothing lies further that way.
   */
  listRecords<T extends object>(orgId: string, kind: string, query: ListQuery): Promise<Page<T>>;
  /** listRecords' page with each record's document as JSON (see RecordJson). */
  listRecordJson(orgId: string, kind: string, query: ListQuery): Promise<PageOf<string>>;
  /** All matching records in sort order, at most `limit` (exports). */
  findRecords<T extends object>(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
  ): Promise<Array<StoredRecord<T>>>;
  /**
   * findRecords of the records of `kind` whose subtype is `subtype` (at most 1,000), oldest first. Records of
   * a family that changes seldom (stage diagrams) may be kept between calls while the family is unchanged:
   * what comes back is then shared and frozen, and always what a read would give now.
   */
  findBySubtype<T extends object>(
    orgId: string,
    kind: string,
    subtype: string,
  ): Promise<ReadonlyArray<StoredRecord<T>>>;
  /**
   * The documents (`data`) of the records findRecords finds as the JSON `{"<key>":[<document>,...]}` in
   * chunks of UTF-8 bytes, for an answer of thousands that sends them as they are stored instead of parsing
   * and printing each again; on a SQLite file they are read while they are sent. Iterate it to its end, or
   * end it early (`return`): on a SQLite file it holds a read connection until then.
   */
  findRecordJson(
    orgId: string,
    kind: string,
    query: Omit<ListQuery, "cursor" | "mode">,
    key: string,
  ): Promise<Iterable<Buffer> | AsyncIterable<Buffer>>;
  countRecords(orgId: string, kind: string, filter?: Filter): Promise<number>;
}

// The sandboxes' rows and queries. They are declared here and implemented by ./sandboxes.ts, so that the store's
// interface names them without importing the module that imports it.

export interface SandboxRow {
  /** The organization of the sandbox; also the sandbox's id. */
  org_id: string;
  /** The organization whose admin made it: only it sees the sandbox. */
  owner_org_id: string;
  name: string;
  seeded: number;
  created_date: string;
  expires_at: string;
}

export interface JournalRow {
  seq: number | string;
  org_id: string;
  operation: string;
  method: string;
  path: string;
  query: string;
  /** JSON text of the body as sent; null without one. */
  body: string | null;
  status: number;
  time: string;
}

export type NewJournalEntry = Omit<JournalRow, "seq">;

export interface PageRequest {
  cursor?: string;
  mode?: "after" | "before";
  limit: number;
}

/** The sandbox queries (./sandboxes.ts), on the store's connection or transaction. */
/**
 * An organization's rows read out of one store, to be written into another's (./org-rows.ts): the rows of
 * each table as that store gave them (the records in insertion order, each document as JSON text), and the
 * organization's number.
 */
export interface OrgRows {
  number: number;
  devUsers: Array<Record<string, unknown>>;
  counters: Array<Record<string, unknown>>;
  records: Array<Record<string, unknown>>;
  tokens: Array<Record<string, unknown>>;
}

export interface SandboxQueries {
  insert(row: SandboxRow & { org_number: number }): Promise<void>;
  /** The sandbox whose organization is `orgId` (whoever made it), if that organization is a sandbox. */
  byOrg(orgId: string): Promise<SandboxRow | undefined>;
  /** How many sandboxes are live (not past their expiry), in every organization. */
  countLive(at?: string): Promise<number>;
  /** The live sandboxes `ownerOrgId` made, oldest first, one page. */
  list(ownerOrgId: string, page: PageRequest, at?: string): Promise<PageOf<SandboxRow>>;
  /** The sandboxes past their expiry (at most `limit`). */
  expired(limit: number, at?: string): Promise<string[]>;
  /** Deletes an organization and everything of it; rows already gone are no error. */
  deleteOrg(orgId: string): Promise<void>;
  /** Adds a request to a sandbox's journal and drops its oldest past `keep`. */
  journal(entry: NewJournalEntry, keep: number): Promise<void>;
  /** One page of a sandbox's journal, oldest first, optionally of one operation. */
  requests(orgId: string, operation: string | undefined, page: PageRequest): Promise<PageOf<JournalRow>>;
  /** The organization the demo data set is loaded into for copies, under `name`, if it was made. */
  template(name: string): Promise<string | undefined>;
  setTemplate(name: string, orgId: string): Promise<void>;
  /** Keeps the organization `orgId`, a copy of the template `template`, as a spare seeded sandbox. */
  addSpare(orgId: string, template: string): Promise<void>;
  /** How many spares of the template `template` are kept. */
  countSpares(template: string): Promise<number>;
  /** The spares of templates other than `template` (an earlier release's data set), at most `limit`. */
  staleSpares(template: string, limit: number): Promise<string[]>;
  /** Takes a spare of `template`, if one is kept: its organization, renamed `name` and made active. */
  takeSpare(template: string, name: string): Promise<Org | undefined>;
  /** The first user of the organization `orgId`. */
  firstUser(orgId: string): Promise<DevUser>;
  /** Copies everything of organization `from` into the empty organization `to`; answers the copy of its first user. */
  copyOrg(from: Org, to: Org): Promise<DevUser>;
  /** The rows of organization `org`, to be written into another store's (see ./org-rows.ts). */
  orgRows(org: Org): Promise<OrgRows>;
  /** Writes rows read out of another store into the empty organization `to` (see ./org-rows.ts). */
  writeOrgRows(rows: OrgRows, to: Org): Promise<void>;
  /** The planner's statistics after a bulk load, where a transaction may gather them (PostgreSQL). */
  analyze(): Promise<void>;
}
