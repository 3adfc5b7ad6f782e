// The types of ./databases.mjs.
export declare function temporaryDatabase(
  serverUrl: string,
  prefix?: string,
): Promise<{ url: string; drop(): Promise<void> }>;

export interface TemporaryStorage {
  dataDir: string;
  /** On PostgreSQL: the database made for this storage. */
  databaseUrl?: string;
  /** WORKAPI_DATA_DIR and DATABASE_URL for a server process. */
  env: { WORKAPI_DATA_DIR: string; DATABASE_URL: string };
  /** Deletes the directory and drops the database. */
  remove(): Promise<void>;
}

export declare function temporaryStorage(
  database: "sqlite" | "postgres",
  options?: { prefix?: string; serverUrl?: string },
): Promise<TemporaryStorage>;
