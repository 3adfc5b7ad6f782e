// The one way tests and benchmarks give a server an empty place for its data: a temporary directory and, on
// PostgreSQL, a database of its own (src/stand-in.ts temporaryDatabase: created with a unique name, dropped on
// cleanup). Plain JavaScript (with ./databases.d.mts) for the benchmarks, which run without a TypeScript
// loader; the database helper is the built one, like the server these places are for.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { temporaryDatabase } from "../../dist/stand-in.js";

export { temporaryDatabase };

/**
 * A temporary data directory, and on `postgres` a database of its own on the server of `serverUrl`
 * (DATABASE_URL by default) named `<prefix>_<random>`. `env` gives them to a server process
 * (WORKAPI_DATA_DIR, and DATABASE_URL empty on SQLite so that one set in the environment is not used);
 * `remove()` deletes both, once however often it is called.
 */
export async function temporaryStorage(
  database,
  { prefix = "workapi_test", serverUrl = process.env.DATABASE_URL } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix.replaceAll("_", "-")}-`));
  let own;
  try {
    if (database === "postgres") {
      if (!serverUrl) throw new Error("a PostgreSQL database needs DATABASE_URL");
      own = await temporaryDatabase(serverUrl, prefix);
    }
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  let removed;
  return {
    dataDir,
    ...(own ? { databaseUrl: own.url } : {}),
    env: { WORKAPI_DATA_DIR: dataDir, DATABASE_URL: own?.url ?? "" },
    remove() {
      removed ??= (async () => {
        rmSync(dataDir, { recursive: true, force: true });
        await own?.drop();
      })();
      return removed;
    },
  };
}
