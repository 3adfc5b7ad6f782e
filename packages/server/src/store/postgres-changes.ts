// Migration 0009_postgres_changes (see ./migrations.ts, which lists it): the change counts of ./changes.ts on
// PostgreSQL.
import { type Kysely, type Migration, sql } from "kysely";
import { REWRITES } from "./changes.js";

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

/**
 * Migration 0011_postgres_changes_at_commit: the same counts, moved once per transaction, at its commit, in
 * one order. The row triggers of 0009 moved a count for every row changed (a seeded sandbox copies thousands:
 * thousands of upserts at its commit), each count locked in the order its rows were changed: two
 * transactions that changed two families in opposite orders (a sandbox's copy and a works.update elsewhere)
 * locked the counts in opposite orders and deadlocked. Now statement triggers note which families (and
 * whether the credentials) a transaction changed, in settings local to the transaction, and insert one row
 * into `pending_changes`; that row's deferred trigger moves the counts at commit in one statement, the
 * credentials' first and then the families' in the order of their names. Every transaction takes the counts'
 * locks in that one order, so none waits for another in a circle, and none holds them before its commit.
 * (Constraint triggers, the only deferred ones, cannot be statement triggers: hence the row of its own.)
 */
export function postgresChangesAtCommit(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const [table, change] of ROW_TRIGGERS) {
        await sql`drop trigger if exists ${sql.id(`${table}_${change}`)} on ${sql.table(table)}`.execute(db);
      }
      await sql`create table if not exists pending_changes (tx bigint primary key)`.execute(db);
      // Organizations' numbers from a sequence (see createOrg), after the last one the counter gave.
      await sql`create sequence if not exists org_numbers`.execute(db);
      await sql`select setval('org_numbers', greatest(
          (select max(value) from counters where org_id = '' and prefix = 'ORG'),
          (select max(number) from orgs), 0) + 1, false)`.execute(db);
      for (const [name, body] of Object.entries(AT_COMMIT_FUNCTIONS)) {
        await sql
          .raw(`create or replace function workapi_${name}() returns trigger language plpgsql
            set search_path from current as $$ begin ${body} return null; end $$`)
          .execute(db);
      }
      await sql`create constraint trigger pending_changes_count after insert on pending_changes
        deferrable initially deferred for each row execute function workapi_count_changes()`.execute(db);
      for (const table of ["tokens", "orgs", "dev_users"]) {
        await sql`create trigger ${sql.id(`${table}_note_change`)} after insert or update or delete
          on ${sql.table(table)} for each statement execute function workapi_note_credential_change()`.execute(
          db,
        );
      }
      // A statement trigger sees the rows it changed in a transition table, one event per trigger.
      for (const [event, rows] of [
        ["insert", "new"],
        ["update", "new"],
        ["delete", "old"],
      ] as const) {
        await sql`create trigger ${sql.id(`records_note_${event}`)} after ${sql.raw(event)} on records
          referencing ${sql.raw(rows)} table as changed_rows
          for each statement execute function workapi_note_family_change()`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const event of ["insert", "update", "delete"]) {
        await sql`drop trigger if exists ${sql.id(`records_note_${event}`)} on records`.execute(db);
      }
      for (const table of ["tokens", "orgs", "dev_users"]) {
        await sql`drop trigger if exists ${sql.id(`${table}_note_change`)} on ${sql.table(table)}`.execute(
          db,
        );
      }
      await sql`drop table if exists pending_changes`.execute(db);
      await sql`drop sequence if exists org_numbers`.execute(db);
      for (const name of Object.keys(AT_COMMIT_FUNCTIONS)) {
        await sql`drop function if exists ${sql.raw(`workapi_${name}`)}()`.execute(db);
      }
      for (const [table, change] of ROW_TRIGGERS) {
        await sql`create constraint trigger ${sql.id(`${table}_${change}`)} after insert or update or delete
          on ${sql.table(table)} deferrable initially deferred for each row
          execute function ${sql.raw(`workapi_${change}`)}()`.execute(db);
      }
    },
  };
}

/**
 * The settings a transaction notes its changes in (local to it: gone at its end, undone with a savepoint
 * rolled back, as the row in `pending_changes` is), and the trigger functions of 0011 by their bodies.
 * `current_setting(name, true)` is null before a session first sets it and '' after a transaction that set it.
 */
const MARK = `
    if coalesce(current_setting('workapi.changes_pending', true), '') = '' then
      insert into pending_changes (tx) values (txid_current());
      perform set_config('workapi.changes_pending', '1', true);
    end if;`;
const AT_COMMIT_FUNCTIONS = {
  note_credential_change: `${MARK}
    perform set_config('workapi.credentials_changed', '1', true);`,
  note_family_change: `
    declare
      noted text := coalesce(current_setting('workapi.families_changed', true), '');
      added text;
    begin
      select string_agg(distinct kind, ',') into added from changed_rows
        where position(',' || kind || ',' in ',' || noted || ',') = 0;
      if added is not null then
        ${MARK}
        perform set_config('workapi.families_changed', concat_ws(',', nullif(noted, ''), added), true);
      end if;
    end;`,
  count_changes: `
    if coalesce(current_setting('workapi.credentials_changed', true), '') = '1' then
      update credential_changes set n = n + 1 where id = 1;
    end if;
    insert into kept_record_changes (kind, n)
      select kind, 1 from unnest(string_to_array(current_setting('workapi.families_changed', true), ',')) as kind
      where kind <> '' order by kind
      on conflict (kind) do update set n = kept_record_changes.n + 1;
    delete from pending_changes where tx = new.tx;`,
};

/** How many rows each count is spread over (migration 0013). */
export const COUNT_SLOTS = 8;

/**
 * Migration 0013_postgres_count_slots: each count spread over COUNT_SLOTS rows, its value their sum. With one
 * row per count, every transaction that changed a family held that row's lock from its commit's update until
 * its commit was flushed to disk, so the writes of a family committed one at a time across the whole
 * database (every organization, every server process), each after the previous one's flush, and PostgreSQL
 * could not flush several commits at once: a family's writes were capped at one per flush. Now a
 * transaction moves the row of its slot (its transaction id modulo COUNT_SLOTS) for each count it moves,
 * still the credentials' first and then the families' in the order of their names, so none waits for
 * another in a circle; two transactions wait for each other only when they share a slot. A work item's
 * insert and commit replayed with pgbench (10 clients, on a 2-core machine whose disk flushes in about
 * 0.1 ms): about 2,420 transactions a second with one row, 4,060 with eight (medians of three).
 *
 * More rows make the counts statement longer (./open.ts, once per turn of the event loop that has requests):
 * over 21 families, 0.117 ms with one row each, about 0.13 ms with eight and 0.164 ms with sixteen (pgbench,
 * every slot filled). Sixteen slots took 5-9% off works.get served from kept answers (alternated runs);
 * eight gain as much on commits and cost no measurable reads.
 *
 * A count's sum only ever moves up, and moves with every committed change it counts, as one row's value did;
 * the counts are read as sums in one statement (one snapshot), so what ./changes.ts argues holds unchanged.
 */
export function postgresCountSlots(): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`alter table credential_changes drop constraint if exists credential_changes_id_check`.execute(
        db,
      );
      await sql`alter table credential_changes add constraint credential_changes_slot
        check (id >= 0 and id < ${sql.lit(COUNT_SLOTS)})`.execute(db);
      await sql`alter table kept_record_changes add column if not exists slot smallint not null default 0`.execute(
        db,
      );
      await sql`alter table kept_record_changes drop constraint kept_record_changes_pkey`.execute(db);
      await sql`alter table kept_record_changes add primary key (kind, slot)`.execute(db);
      await sql
        .raw(`create or replace function workapi_count_changes() returns trigger language plpgsql
          set search_path from current as $$ begin ${SLOT_COUNT_CHANGES} return null; end $$`)
        .execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await sql
        .raw(`create or replace function workapi_count_changes() returns trigger language plpgsql
          set search_path from current as $$ begin ${AT_COMMIT_FUNCTIONS.count_changes} return null; end $$`)
        .execute(db);
      // Each count back on one row, its sum (credentials on the row of id 1, as 0002 made it).
      await sql`update credential_changes set n = (select sum(n) from credential_changes) where id = 1`.execute(
        db,
      );
      await sql`delete from credential_changes where id <> 1`.execute(db);
      await sql`alter table credential_changes drop constraint credential_changes_slot`.execute(db);
      await sql`alter table credential_changes add constraint credential_changes_id_check check (id = 1)`.execute(
        db,
      );
      await sql`create temporary table summed_counts on commit drop as
        select kind, sum(n)::bigint as n from kept_record_changes group by kind`.execute(db);
      await sql`delete from kept_record_changes`.execute(db);
      await sql`alter table kept_record_changes drop constraint kept_record_changes_pkey`.execute(db);
      await sql`alter table kept_record_changes drop column slot`.execute(db);
      await sql`alter table kept_record_changes add primary key (kind)`.execute(db);
      await sql`insert into kept_record_changes (kind, n) select kind, n from summed_counts`.execute(db);
    },
  };
}

/** workapi_count_changes of 0013: 0011's, each count moved on the row of the transaction's slot. */
const SLOT_COUNT_CHANGES = `
    if coalesce(current_setting('workapi.credentials_changed', true), '') = '1' then
      insert into credential_changes (id, n) values ((new.tx % ${COUNT_SLOTS})::int, 1)
        on conflict (id) do update set n = credential_changes.n + 1;
    end if;
    insert into kept_record_changes (kind, slot, n)
      select kind, (new.tx % ${COUNT_SLOTS})::smallint, 1
      from unnest(string_to_array(current_setting('workapi.families_changed', true), ',')) as kind
      where kind <> '' order by kind
      on conflict (kind, slot) do update set n = kept_record_changes.n + 1;
    delete from pending_changes where tx = new.tx;`;

/**
 * Migration 0014_rewrite_counts on PostgreSQL (SQLite's is in ./migrations.ts): each family's count of
 * updates and deletes, `~<kind>` (see REWRITES in ./changes.ts), noted by the same statement triggers and
 * moved at commit with the family's own count, in the same order of names. A TRUNCATE of the records moves
 * every count, these included (made first where a family had none yet).
 */
export function postgresRewriteCounts(): Migration {
  const functions = (noteFamily: string, truncate: string) =>
    Object.entries({ note_family_change: noteFamily, truncate_change: truncate });
  const replace = async (db: Kysely<unknown>, bodies: Array<[string, string]>) => {
    for (const [name, body] of bodies) {
      await sql
        .raw(`create or replace function workapi_${name}() returns trigger language plpgsql
          set search_path from current as $$ begin ${body} return null; end $$`)
        .execute(db);
    }
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await replace(db, functions(NOTE_FAMILY_AND_REWRITES, TRUNCATE_WITH_REWRITES));
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await replace(db, functions(AT_COMMIT_FUNCTIONS.note_family_change, FUNCTIONS.truncate_change));
      await sql`delete from kept_record_changes where left(kind, 1) = ${REWRITES}`.execute(db);
    },
  };
}

/** note_family_change of 0011, noting also `~<kind>` for the records an update or a delete changed. */
const NOTE_FAMILY_AND_REWRITES = `
    declare
      noted text := coalesce(current_setting('workapi.families_changed', true), '');
      added text;
    begin
      select string_agg(distinct family, ',') into added from (
          select kind as family from changed_rows
          union all
          select '${REWRITES}' || kind from changed_rows where tg_op <> 'INSERT'
        ) as changed
        where position(',' || family || ',' in ',' || noted || ',') = 0;
      if added is not null then
        ${MARK}
        perform set_config('workapi.families_changed', concat_ws(',', nullif(noted, ''), added), true);
      end if;
    end;`;

/** truncate_change of 0009, which first gives each family without one a count of updates and deletes. */
const TRUNCATE_WITH_REWRITES = `
    if tg_table_name = 'records' then
      insert into kept_record_changes (kind, n)
        select distinct '${REWRITES}' || kind, 0 from kept_record_changes where left(kind, 1) <> '${REWRITES}'
        on conflict do nothing;
      update kept_record_changes set n = n + 1;
    else
      update credential_changes set n = n + 1 where id = 1;
    end if;`;
