// Schema migrations, kept in code so the built server needs no migration files on disk. Kysely's Migrator
// records applied migrations in its own table and skips them on the next start; new migrations are appended
// to MIGRATIONS under a name that sorts after the existing ones, never edited once released.
import { type Kysely, type Migration, type MigrationProvider, type RawBuilder, sql } from "kysely";
import { REWRITES } from "./changes.js";
import type { DialectName } from "./dialect.js";
import {
  postgresChanges,
  postgresChangesAtCommit,
  postgresCountSlots,
  postgresRewriteCounts,
} from "./postgres-changes.js";
import { sandboxesMigration, sandboxSparesMigration } from "./sandbox-migration.js";
import type { DB } from "./tables.js";

export type { DialectName };

export function migrationProvider(dialect: DialectName): MigrationProvider {
  const migrations: Record<string, Migration> = {
    "0001_initial": initial(dialect),
    "0002_credential_changes": credentialChanges(dialect),
    "0003_kept_record_changes": keptRecordChanges(dialect),
    "0004_ticket_is_frozen": ticketIsFrozen(dialect),
    "0005_records_parent_sorted": recordsParentSorted(),
    "0006_records_parent_modified": recordsParentModified(),
    "0007_family_changes": familyChanges(dialect),
    "0008_no_index_samples": noIndexSamples(dialect),
    "0009_postgres_changes": dialect === "postgres" ? postgresChanges() : NOTHING,
    "0010_sandboxes": sandboxesMigration(dialect),
    "0011_postgres_changes_at_commit": dialect === "postgres" ? postgresChangesAtCommit() : NOTHING,
    "0012_sandbox_spares": sandboxSparesMigration(dialect),
    "0013_postgres_count_slots": dialect === "postgres" ? postgresCountSlots() : NOTHING,
    "0014_rewrite_counts": dialect === "postgres" ? postgresRewriteCounts() : rewriteCounts(),
  };
  return { getMigrations: async () => migrations };
}

/** A migration with nothing to do on this dialect. */
const NOTHING: Migration = { up: async () => {} };

/** The column types that differ between the dialects. */
interface ColumnTypes {
  pg: boolean;
  text: RawBuilder<unknown>;
  json: RawBuilder<unknown>;
}

function initial(dialect: DialectName): Migration {
  const pg = dialect === "postgres";
  // On PostgreSQL, text sorts by the "C" collation (byte order), which is what SQLite's BINARY collation
  // does: the same data sorts the same on both databases, and keyset comparisons agree with the indexes.
  const types: ColumnTypes = {
    pg,
    text: pg ? sql`text collate "C"` : sql`text`,
    json: pg ? sql`jsonb` : sql`text`,
  };

  return {
    // Every statement uses IF NOT EXISTS, so a migration that was interrupted can simply run again.
    async up(db: Kysely<unknown>): Promise<void> {
      await createOrgs(db, types);
      await createDevUsers(db, types);
      await createTokens(db, types);
      await createRecords(db, types);
      await createRecordIndexes(db);
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ["records", "tokens", "dev_users", "counters", "orgs"]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

/** The organizations and the counters their display ids are numbered from. */
async function createOrgs(db: Kysely<unknown>, { text }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("orgs")
    .ifNotExists()
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("number", "integer", (c) => c.notNull().unique())
    .addColumn("name", text, (c) => c.notNull())
    .addColumn("status", text, (c) => c.notNull())
    .addColumn("created_date", text, (c) => c.notNull())
    .execute();

  // Display id numbers per (organization, prefix); the organization numbers themselves use org_id ''.
  await db.schema
    .createTable("counters")
    .ifNotExists()
    .addColumn("org_id", text, (c) => c.notNull())
    .addColumn("prefix", text, (c) => c.notNull())
    .addColumn("value", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("counters_pk", ["org_id", "prefix"])
    .execute();
}

async function createDevUsers(db: Kysely<unknown>, { text }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("dev_users")
    .ifNotExists()
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("org_id", text, (c) => c.notNull().references("orgs.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("display_id", text, (c) => c.notNull())
    .addColumn("email", text, (c) => c.notNull())
    .addColumn("full_name", text, (c) => c.notNull())
    .addColumn("display_name", text, (c) => c.notNull())
    .addColumn("state", text, (c) => c.notNull())
    .addColumn("created_date", text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("dev_users_org_number")
    .ifNotExists()
    .on("dev_users")
    .columns(["org_id", "number"])
    .execute();
  await db.schema
    .createIndex("dev_users_org_display_id")
    .ifNotExists()
    .on("dev_users")
    .columns(["org_id", "display_id"])
    .execute();
}

async function createTokens(db: Kysely<unknown>, { text }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("tokens")
    .ifNotExists()
    .addColumn("id", text, (c) => c.primaryKey())
    .addColumn("org_id", text, (c) => c.notNull().references("orgs.id").onDelete("cascade"))
    .addColumn("number", "integer", (c) => c.notNull())
    .addColumn("display_id", text, (c) => c.notNull())
    .addColumn("subject", text, (c) => c.notNull())
    .addColumn("hash", text, (c) => c.notNull())
    .addColumn("token_hint", text, (c) => c.notNull())
    .addColumn("requested_token_type", text, (c) => c.notNull())
    .addColumn("scopes", text, (c) => c.notNull()) // JSON array of strings
    .addColumn("client_id", text)
    .addColumn("status", text, (c) => c.notNull())
    .addColumn("issued_at", text, (c) => c.notNull())
    .addColumn("expires_at", text)
    .addColumn("created_by", text, (c) => c.notNull())
    .addColumn("created_date", text, (c) => c.notNull())
    .addColumn("modified_by", text, (c) => c.notNull())
    .addColumn("modified_date", text, (c) => c.notNull())
    .addColumn("object_version", "integer", (c) => c.notNull())
    .execute();
  // Every authenticated request looks its token up by hash: one unique index answers it.
  await db.schema
    .createIndex("tokens_hash_unique")
    .ifNotExists()
    .unique()
    .on("tokens")
    .column("hash")
    .execute();
  await db.schema
    .createIndex("tokens_org_subject")
    .ifNotExists()
    .on("tokens")
    .columns(["org_id", "subject", "number"])
    .execute();
}

/** The one table of every record family: a few columns to find and sort by, and the document. */
async function createRecords(db: Kysely<unknown>, { pg, text, json }: ColumnTypes): Promise<void> {
  await db.schema
    .createTable("records")
    .ifNotExists()
    .addColumn("seq", pg ? "bigint" : "integer", (c) =>
      pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("kind", text, (c) => c.notNull())
    .addColumn("id", text, (c) => c.notNull().unique())
    .addColumn("display_id", text, (c) => c.notNull())
    .addColumn("org_id", text, (c) => c.notNull().references("orgs.id").onDelete("cascade"))
    .addColumn("subtype", text)
    .addColumn("parent_id", text)
    .addColumn("label", text, (c) => c.notNull().defaultTo(""))
    .addColumn("external_ref", text)
    .addColumn("created_date", text, (c) => c.notNull())
    .addColumn("modified_date", text, (c) => c.notNull())
    .addColumn("object_version", "integer", (c) => c.notNull())
    .addColumn("data", json, (c) => c.notNull())
    .execute();
}

async function createRecordIndexes(db: Kysely<unknown>): Promise<void> {
  // One index per list path: organization and family first, then the sort column and the tie-breaker.
  const indexes: Array<[string, string[]]> = [
    ["records_created", ["org_id", "kind", "created_date", "seq"]],
    ["records_modified", ["org_id", "kind", "modified_date", "seq"]],
    ["records_label", ["org_id", "kind", "label", "seq"]],
    ["records_display_id", ["org_id", "display_id"]],
    ["records_parent", ["org_id", "kind", "parent_id"]],
  ];
  for (const [name, columns] of indexes) {
    await db.schema.createIndex(name).ifNotExists().on("records").columns(columns).execute();
  }
  // rethrowConflict (./rows.ts) turns violations of these into conflicts, by column (SQLite) or index name
  // (PostgreSQL).
  await db.schema
    .createIndex("records_external_ref_unique")
    .ifNotExists()
    .unique()
    .on("records")
    .columns(["org_id", "kind", "external_ref"])
    .where(sql.ref("external_ref"), "is not", null)
    .execute();
  await db.schema
    .createIndex("records_tag_name_unique")
    .ifNotExists()
    .unique()
    .on("records")
    .columns(["org_id", "label"])
    .where(sql.ref("kind"), "=", sql.lit("tag"))
    .execute();
}

/** The tables a request's credentials are read from: a change to any of them counts as a credential change. */
const CREDENTIAL_TABLES = ["tokens", "orgs", "dev_users"];

/**
 * On SQLite, a one-row counter that triggers move in the same transaction as every insert, update or delete
 * of a token, organization or user: a store that keeps credentials (see CredentialsCache) reads it when the
 * file has changed, and keeps what it holds when the change was elsewhere. On PostgreSQL the same count is
 * made by 0009_postgres_changes, so the migration does nothing there.
 */
function credentialChanges(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      await sql`create table if not exists credential_changes (id integer primary key check (id = 1), n integer not null)`.execute(
        db,
      );
      await sql`insert or ignore into credential_changes (id, n) values (1, 0)`.execute(db);
      for (const table of CREDENTIAL_TABLES) {
        for (const event of ["insert", "update", "delete"]) {
          await sql`create trigger if not exists ${sql.id(`${table}_${event}_credential_change`)} after ${sql.raw(
            event,
          )} on ${sql.id(table)} begin update credential_changes set n = n + 1 where id = 1; end`.execute(db);
        }
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      for (const table of CREDENTIAL_TABLES) {
        for (const event of ["insert", "update", "delete"]) {
          await sql`drop trigger if exists ${sql.id(`${table}_${event}_credential_change`)}`.execute(db);
        }
      }
      await sql`drop table if exists credential_changes`.execute(db);
    },
  };
}

/** The families 0003 counted (since 0007 every family has a count; what is kept: ./kept-records.ts). */
const KEPT_KINDS = ["stage_diagram"] as const;

/**
 * On SQLite, a counter per kept family that triggers move in the same transaction as every insert, update or
 * delete of one of its records: a store that kept such records compared it with the count it read them
 * at. PostgreSQL kept no records then, so the migration does nothing there.
 */
function keptRecordChanges(dialect: DialectName): Migration {
  // Literals: a trigger's SQL cannot take bound parameters.
  const kinds = sql.join(KEPT_KINDS.map((kind) => sql.lit(kind)));
  const triggers = {
    insert: sql`when new.kind in (${kinds}) begin update kept_record_changes set n = n + 1 where kind = new.kind; end`,
    // A record's kind does not change; were it to, the family it left and the one it joined both count.
    update: sql`when old.kind in (${kinds}) or new.kind in (${kinds}) begin update kept_record_changes set n = n + 1 where kind in (old.kind, new.kind); end`,
    delete: sql`when old.kind in (${kinds}) begin update kept_record_changes set n = n + 1 where kind = old.kind; end`,
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      await sql`create table if not exists kept_record_changes (kind text primary key, n integer not null)`.execute(
        db,
      );
      for (const kind of KEPT_KINDS) {
        await sql`insert or ignore into kept_record_changes (kind, n) values (${kind}, 0)`.execute(db);
      }
      for (const [event, body] of Object.entries(triggers)) {
        await sql`create trigger if not exists ${sql.id(`records_${event}_kept_change`)} after ${sql.raw(
          event,
        )} on records ${body}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      for (const event of Object.keys(triggers)) {
        await sql`drop trigger if exists ${sql.id(`records_${event}_kept_change`)}`.execute(db);
      }
      await sql`drop table if exists kept_record_changes`.execute(db);
    },
  };
}

/** Tickets carry `is_frozen`: those stored before it existed get `false`, the value every new ticket has. */
function ticketIsFrozen(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") {
        await sql`update records set data = data || '{"is_frozen": false}'::jsonb
          where kind = 'work' and subtype = 'ticket' and not (data ? 'is_frozen')`.execute(db);
      } else {
        await sql`update records set data = json_set(data, '$.is_frozen', json('false'))
          where kind = 'work' and subtype = 'ticket' and json_type(data, '$.is_frozen') is null`.execute(db);
      }
    },
    async down(): Promise<void> {
      // The field stays: it is part of the record the interface shows.
    },
  };
}

/**
 * A record's children (the entries of a timeline) are read in created order: the parent index carries that
 * order too, so the query that finds them by parent needs no sort, and the planner has no reason left to walk
 * the created-date index of the whole family instead (it did on SQLite without statistics, 155-250 ms a page
 * at 131,000 timeline entries). The new index begins with the old one's columns, which it replaces.
 */
function recordsParentSorted(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex("records_parent_created")
        .ifNotExists()
        .on("records")
        .columns(["org_id", "kind", "parent_id", "created_date", "seq"])
        .execute();
      await db.schema.dropIndex("records_parent").ifExists().execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex("records_parent")
        .ifNotExists()
        .on("records")
        .columns(["org_id", "kind", "parent_id"])
        .execute();
      await db.schema.dropIndex("records_parent_created").ifExists().execute();
    },
  };
}

/**
 * A record's children in modified order (a timeline sorted by `modified_date`) through an index of their own.
 * Without it the planner had to choose between the parent index and a sort, or the modified-date index over
 * the whole family, and it took the second whenever a page's cursor made the date range look narrow
 * (test/store/query-plans.test.ts).
 */
function recordsParentModified(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex("records_parent_modified")
        .ifNotExists()
        .on("records")
        .columns(["org_id", "kind", "parent_id", "modified_date", "seq"])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex("records_parent_modified").ifExists().execute();
    },
  };
}

/** The counting triggers of 0003_kept_record_changes, which 0007_family_changes replaces. */
const KEPT_TRIGGERS = ["insert", "update", "delete"].map((event) => `records_${event}_kept_change`);

/**
 * On SQLite, the counter of 0003_kept_record_changes kept for every family, not only the kept ones: the
 * answers of reads are kept while the families they read are unchanged (see Changes). Each insert, update or
 * delete of a record moves its family's count in the same transaction (an upsert: a family's row appears
 * with its first change, and a family without one counts 0). The families that already have records start
 * at 0 with a row of their own. On PostgreSQL the same counts are made by 0009_postgres_changes, so the
 * migration does nothing there.
 */
function familyChanges(dialect: DialectName): Migration {
  const count = (kind: string) =>
    sql.raw(
      `insert into kept_record_changes (kind, n) values (${kind}, 1) on conflict (kind) do update set n = n + 1;`,
    );
  const triggers = {
    insert: sql`begin ${count("new.kind")} end`,
    // A record's kind does not change; were it to, the family it left counts too.
    update: sql`begin ${count("new.kind")} update kept_record_changes set n = n + 1 where kind = old.kind and old.kind <> new.kind; end`,
    delete: sql`begin ${count("old.kind")} end`,
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      for (const name of KEPT_TRIGGERS) await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
      await sql`insert or ignore into kept_record_changes (kind, n) select distinct kind, 0 from records`.execute(
        db,
      );
      for (const [event, body] of Object.entries(triggers)) {
        await sql`create trigger if not exists ${sql.id(`records_${event}_family_change`)} after ${sql.raw(
          event,
        )} on records ${body}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      for (const event of Object.keys(triggers)) {
        await sql`drop trigger if exists ${sql.id(`records_${event}_family_change`)}`.execute(db);
      }
      await keptRecordChanges(dialect).up(db);
    },
  };
}

/**
 * On SQLite, each family's count of updates and deletes, `~<kind>` (see REWRITES in ./changes.ts), moved by
 * triggers of its own beside 0007's in the same transaction as the change (a record whose kind changed counts
 * for both families). PostgreSQL's is postgresRewriteCounts.
 */
function rewriteCounts(): Migration {
  const count = (kind: string, when = "") =>
    `insert into kept_record_changes (kind, n) select '${REWRITES}' || ${kind}, 1 where true ${when}
      on conflict (kind) do update set n = n + 1;`;
  const triggers = {
    update: `begin ${count("old.kind")} ${count("new.kind", "and new.kind <> old.kind")} end`,
    delete: `begin ${count("old.kind")} end`,
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [event, body] of Object.entries(triggers)) {
        await sql`create trigger if not exists ${sql.id(`records_${event}_rewrite_change`)} after ${sql.raw(
          event,
        )} on records ${sql.raw(body)}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const event of Object.keys(triggers)) {
        await sql`drop trigger if exists ${sql.id(`records_${event}_rewrite_change`)}`.execute(db);
      }
      await sql`delete from kept_record_changes where substr(kind, 1, 1) = ${REWRITES}`.execute(db);
    },
  };
}

/**
 * On SQLite, the index samples an earlier ANALYZE kept are dropped before any connection of the server loads
 * them (see dropSamples); updateStatistics (./statistics.ts) never keeps them.
 */
function noIndexSamples(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === "postgres") return;
      await dropSamples(db);
    },
    async down(): Promise<void> {
      // The next ANALYZE that keeps samples writes them again.
    },
  };
}

/**
 * better-sqlite3's SQLite is built with STAT4, so ANALYZE also keeps samples of each index (sqlite_stat4).
 * With samples, a statement whose WHERE compares an indexed column with a bound parameter is prepared again
 * on every run after its parameters are bound, as SQLite documents, and better-sqlite3 binds them on every
 * run: a first page of tags cost 53 µs with samples and 41 µs without, a count of them 34 µs and 16 µs. The
 * per-index row estimates (sqlite_stat1), which choose the indexes ./statistics.ts is about, stay; the samples
 * go in the same transaction as the ANALYZE that wrote them, so no connection loads them.
 */
export async function dropSamples(db: Kysely<unknown> | Kysely<DB>): Promise<void> {
  const samples = await sql`select 1 from sqlite_master where name = 'sqlite_stat4'`.execute(db);
  if (samples.rows.length > 0) await sql`delete from sqlite_stat4`.execute(db);
}
