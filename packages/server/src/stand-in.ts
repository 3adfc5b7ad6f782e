// The stand-in started from a test runner (a Vitest `globalSetup`, a Jest `globalSetup`, a script): the server
// in this process on a free port, on a database made for this run (a SQLite file in a temporary folder, or a
// PostgreSQL database created on the server of `databaseUrl`), with its first admin token (which holds
// `sandbox:admin`, so test files make their own sandboxes with it) and the seeded sandboxes' template made;
// `stop()` closes it and removes the data.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { configFromEnv, type ServerConfig, sandboxSettingsOf } from "./config.js";
import { prepareDemoTemplate, spareSandboxes } from "./operations/sandboxes.js";
import { sandboxServices } from "./seed/index.js";
import { startServer } from "./server.js";

export interface StandInOptions {
  /**
   * A PostgreSQL server's URL: the stand-in runs on a database of its own made there (the URL's user may
   * create databases), dropped by `stop()`. Without it: SQLite in a temporary folder.
   */
  databaseUrl?: string;
  /** The port to listen on; 0 (the default): a free one. */
  port?: number;
  /** Load the demo data set into the first organization (sandboxes made with `seed: true` have it anyway). */
  seed?: boolean;
  /**
   * Make the demo data template that seeded sandboxes copy, and the spare seeded sandboxes the server keeps
   * (`settings.sandboxSpares`, 16 by default), before answering (default true: a second or two here,
   * instead of in the first `sandboxes.create` calls with `seed: true`, which then take a spare each).
   */
  sandboxTemplate?: boolean;
  /** Any other setting of the server (see its README's settings table); the environment is not read. */
  settings?: Partial<ServerConfig>;
}

export interface StandIn {
  /** Where it listens, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The first organization's admin token: every scope, `sandbox:admin` included. */
  token: string;
  /** The temporary folder of its data (the SQLite file, the admin token), removed by `stop()`. */
  dataDir: string;
  /** On PostgreSQL: the URL of the database made for it, dropped by `stop()`. */
  databaseUrl?: string;
  /** Closes the server (requests in flight finish first) and removes its database. */
  stop(): Promise<void>;
}

/** Starts the stand-in for a test run; see StandInOptions. */
export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const dataDir = mkdtempSync(join(tmpdir(), "workapi-stand-in-"));
  const database = options.databaseUrl ? await temporaryDatabase(options.databaseUrl) : undefined;
  const removeData = async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  };
  try {
    const config = configFromEnv(
      { NODE_ENV: "production" },
      {
        port: options.port ?? 0,
        host: "127.0.0.1",
        dataDir,
        logLevel: "warn",
        ...(database ? { databaseUrl: database.url } : {}),
        ...options.settings,
      },
    );
    const running = await startServer(config, {
      print: () => {},
      seedOnFirstStart: options.seed ?? false,
    });
    // A new database: the first start made the organization and wrote its admin token there.
    const token = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
    // Before any test file asks: the first seeded sandboxes of a suite are then spares made from it. (Nothing
    // else writes yet, so this process's own connection writes them beside an idle write thread.)
    if (options.sandboxTemplate ?? true) {
      const services = sandboxServices(sandboxSettingsOf(config));
      await prepareDemoTemplate(running.store, services);
      await spareSandboxes(running.store, services, () => false).wanted();
    }
    let stopped: Promise<void> | undefined;
    return {
      url: running.url,
      token,
      dataDir,
      ...(database ? { databaseUrl: database.url } : {}),
      stop: () => {
        stopped ??= running.stop().finally(removeData);
        return stopped;
      },
    };
  } catch (error) {
    await removeData();
    throw error;
  }
}

/**
 * A database of its own on the PostgreSQL server of `serverUrl`, named `<prefix>_<random>`, and how to drop
 * it (the server's tests and benchmarks make theirs with it too, through test/support/databases.mjs).
 */
export async function temporaryDatabase(
  serverUrl: string,
  prefix = "workapi_stand_in",
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
