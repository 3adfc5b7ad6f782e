// Migration 0009_postgres_changes (see ./migrations.ts, which lists it): the change counts of ./changes.ts on
// PostgreSQL.
import { type Kysely, type Migration, sql } from "kysely";

/**
 * On PostgreSQL, the counts of 0002_credential_changes and 0007_family_changes, in tables of the same names,
 * so that a PostgreSQL store keeps credentials and the answers of reads as a SQLite file does (see Changes).
 * Every insert, update or delete of a token, organization or user moves the credentials count, and of a
 * record its family's count, in the same transaction. The triggers are constraint triggers deferred to the
 * commit: a count's row is locked from its update to the commit, so transactions changing the same family
 * queue for it, and deferred they hold it only while they commit (a transaction that updates a work and
 * then writes its timeline entries would otherwise hold it throughout). A TRUNCATE, which fires no row
 * triggers, moves every count of its table. The functions keep the search_path they were made with, so a
 * session with another one (an operator's psql) counts in this schema too. SQLite has the counts from 0002
 * and 0007; there this migration does nothing.
 */
export function postgresChanges(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`create table if not exists credential_changes (id integer primary key check (id = 1), n bigint not null)`.execute(
        db,
      );
      await sql`insert into credential_changes (id, n) values (1, 0) on conflict do nothing`.execute(db);
      await sql`create table if not exists kept_record_changes (kind text collate "C" primary key, n bigint not null)`.execute(
        db,
      );
      // The families that already have records start at 0 with a row of their own, as on SQLite.
      await sql`insert into kept_record_changes (kind, n) select distinct kind, 0 from records on conflict do nothing`.execute(
        db,
      );
      for (const [name, body] of Object.entries(FUNCTIONS)) {
        await sql
          .raw(`create or replace function workapi_${name}() returns trigger language plpgsql
            set search_path from current as $$ begin ${body} return null; end $$`)
          .execute(db);
      }
      for (const [table, change] of ROW_TRIGGERS) {
        await sql`drop trigger if exists ${sql.id(`${table}_${change}`)} on ${sql.table(table)}`.execute(db);
        await sql`create constraint trigger ${sql.id(`${table}_${change}`)} after insert or update or delete
          on ${sql.table(table)} deferrable initially deferred for each row
          execute function ${sql.raw(`workapi_${change}`)}()`.execute(db);
        await sql`drop trigger if exists ${sql.id(`${table}_truncate_change`)} on ${sql.table(table)}`.execute(
          db,
        );
        await sql`create trigger ${sql.id(`${table}_truncate_change`)} after truncate on ${sql.table(table)}
          for each statement execute function workapi_truncate_change()`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const [table, change] of ROW_TRIGGERS) {
        await sql`drop trigger if exists ${sql.id(`${table}_${change}`)} on ${sql.table(table)}`.execute(db);
        await sql`drop trigger if exists ${sql.id(`${table}_truncate_change`)} on ${sql.table(table)}`.execute(
          db,
        );
      }
      for (const name of Object.keys(FUNCTIONS)) {
        await sql`drop function if exists ${sql.raw(`workapi_${name}`)}()`.execute(db);
      }
      await sql`drop table if exists credential_changes`.execute(db);
      await sql`drop table if exists kept_record_changes`.execute(db);
    },
  };
}

/** The tables whose rows are counted, and the function (below) that counts a change to one of them. */
const ROW_TRIGGERS = [
  ["tokens", "credential_change"],
  ["orgs", "credential_change"],
  ["dev_users", "credential_change"],
  ["records", "family_change"],
] as const;

/** The trigger functions (workapi_<name>), by the body they run before `return null`. */
const FUNCTIONS = {
  credential_change: "update credential_changes set n = n + 1 where id = 1;",
  family_change: `
    if tg_op <> 'DELETE' then
      insert into kept_record_changes (kind, n) values (new.kind, 1)
        on conflict (kind) do update set n = kept_record_changes.n + 1;
    end if;
    -- A record's kind does not change; were it to, the family it left counts too.
    if tg_op = 'DELETE' or old.kind <> new.kind then
      insert into kept_record_changes (kind, n) values (old.kind, 1)
        on conflict (kind) do update set n = kept_record_changes.n + 1;
    end if;`,
  truncate_change: `
    if tg_table_name = 'records' then
      update kept_record_changes set n = n + 1;
    else
      update credential_changes set n = n + 1 where id = 1;
    end if;`,
};
