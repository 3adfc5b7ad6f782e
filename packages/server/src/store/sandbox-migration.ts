// Migration 0010_sandboxes: the sandboxes (./sandboxes.ts), their request journals and the organizations the
// demo data set is kept in for copies. Every statement uses IF NOT EXISTS, so an interrupted run can repeat.
import { type Kysely, type Migration, sql } from "kysely";
import type { DialectName } from "./dialect.js";

export function sandboxesMigration(dialect: DialectName): Migration {
  const pg = dialect === "postgres";
  const text = pg ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("sandboxes")
        .ifNotExists()
        .addColumn("org_id", text, (c) => c.primaryKey())
        .addColumn("org_number", "integer", (c) => c.notNull())
        .addColumn("owner_org_id", text, (c) => c.notNull())
        .addColumn("name", text, (c) => c.notNull())
        .addColumn("seeded", "integer", (c) => c.notNull())
        .addColumn("created_date", text, (c) => c.notNull())
        .addColumn("expires_at", text, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("sandboxes_owner")
        .ifNotExists()
        .on("sandboxes")
        .columns(["owner_org_id", "org_number"])
        .execute();
      await db.schema
        .createIndex("sandboxes_expiry")
        .ifNotExists()
        .on("sandboxes")
        .column("expires_at")
        .execute();
      await db.schema
        .createTable("sandbox_requests")
        .ifNotExists()
        .addColumn("seq", pg ? "bigint" : "integer", (c) =>
          pg ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("org_id", text, (c) => c.notNull())
        .addColumn("operation", text, (c) => c.notNull())
        .addColumn("method", text, (c) => c.notNull())
        .addColumn("path", text, (c) => c.notNull())
        .addColumn("query", text, (c) => c.notNull())
        .addColumn("body", text)
        .addColumn("status", "integer", (c) => c.notNull())
        .addColumn("time", text, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("sandbox_requests_org")
        .ifNotExists()
        .on("sandbox_requests")
        .columns(["org_id", "seq"])
        .execute();
      await db.schema
        .createTable("sandbox_templates")
        .ifNotExists()
        .addColumn("name", text, (c) => c.primaryKey())
        .addColumn("org_id", text, (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * Migration 0012_sandbox_spares: the seeded sandboxes made ahead of time (../operations/sandboxes.ts,
 * SpareSandboxes): each a copy of the demo data set's template `template`, in an organization of its own
 * that nobody can reach until a `sandboxes.create` with `seed: true` takes it.
 */
export function sandboxSparesMigration(dialect: DialectName): Migration {
  const text = dialect === "postgres" ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("sandbox_spares")
        .ifNotExists()
        .addColumn("org_id", text, (c) => c.primaryKey())
        .addColumn("template", text, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("sandbox_spares_template")
        .ifNotExists()
        .on("sandbox_spares")
        .columns(["template", "org_id"])
        .execute();
    },
  };
}
