// The database engines the store runs on. A module of its own so that the migrations and the modules they
// list (./sandbox-migration.ts) both name it without importing each other.
export type DialectName = "sqlite" | "postgres";
