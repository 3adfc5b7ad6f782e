// The reference server (@workapi/server, built) started in-process for the client tests: on SQLite in memory,
// or on PostgreSQL in a schema of its own (dropped afterwards) when DATABASE_URL is set, listening on a random
// port, with every answer validated against the contract and CORS open to every origin.
import { randomBytes } from "node:crypto";
import { createClient } from "@workapi/client";
import {
  type App,
  actorOf,
  bootstrap,
  buildApp,
  configFromEnv,
  dropPostgresSchema,
  openStore,
  type ServerConfig,
  type SessionUpload,
  type Store,
  storeSession,
} from "@workapi/server";
import type { Target } from "./target.js";

export type Database = "sqlite" | "postgres";

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl) {
  console.warn(
    "DATABASE_URL is not set: the PostgreSQL runs of the client's reference-server tests are skipped",
  );
}

/** The databases to run the suites on: SQLite always, PostgreSQL when DATABASE_URL is set. */
export const databases: Database[] = postgresUrl ? ["sqlite", "postgres"] : ["sqlite"];

export interface ReferenceServer {
  /** The origin, e.g. http://127.0.0.1:41234. */
  url: string;
  app: App;
  store: Store;
  /** The admin token bootstrap issued: every scope of the contract. */
  token: string;
  /** Stores an observability session recording (the contract has no operation that creates one). */
  storeSession(recording: SessionUpload): Promise<void>;
  /** Stops listening, closes the store and drops the PostgreSQL schema. */
  close(): Promise<void>;
}

/** Starts the reference server; `overrides` change its configuration (rate limits, CORS...). */
export async function startReferenceServer(
  database: Database,
  overrides: Partial<ServerConfig> = {},
): Promise<ReferenceServer> {
  let store: Store;
  let drop = async () => {};
  if (database === "postgres") {
    if (!postgresUrl) throw new Error("DATABASE_URL is not set");
    const schema = `client_test_${randomBytes(6).toString("hex")}`;
    store = await openStore({ databaseUrl: postgresUrl, postgresSchema: schema });
    drop = () => dropPostgresSchema(postgresUrl, schema);
  } else {
    store = await openStore({ dataDir: ":memory:" });
  }
  let app: App | undefined;
  try {
    const first = await bootstrap(store);
    if (!first.issued) throw new Error("a fresh store already had an organization");
    const config = configFromEnv(
      { NODE_ENV: "test" },
      {
        port: 0,
        host: "127.0.0.1",
        validateResponses: true,
        corsOrigins: ["*"],
        // The server's load shedding is checked by its own fault suite; here a busy test machine (the other
        // packages' suites run beside this one) must not shed the requests under test, as its harness has it.
        maxEventLoopDelayMs: 0,
        // Only what goes wrong (internal errors, answers that break the contract) reaches the test output.
        logLevel: process.env.LOG_LEVEL ?? "error",
        ...overrides,
      },
    );
    app = await buildApp({ config, store });
    const url = await app.fastify.listen({ port: 0, host: "127.0.0.1" });
    const actor = actorOf(first.org, first.admin);
    const running = app;
    return {
      url,
      app,
      store,
      token: first.issued.secret,
      async storeSession(recording) {
        await storeSession(store, actor, recording);
      },
      async close() {
        await running.close();
        await store.close();
        await drop();
      },
    };
  } catch (error) {
    await app?.close();
    await store.close();
    await drop();
    throw error;
  }
}

/**
 * The reference server as a conformance Target: `tags` tags created through the client's own tags.create,
 * and a check, on close, that every answer it gave was valid against the contract.
 */
export async function referenceTarget(database: Database, tags = 230): Promise<Target> {
  const server = await startReferenceServer(database);
  const api = createClient({ baseUrl: server.url, token: server.token, throwOnError: true });
  for (let i = 1; i <= tags; i++)
    await api.tags.create({ name: `conformance-${String(i).padStart(3, "0")}` });
  return {
    name: `the reference server on ${database}`,
    baseUrl: server.url,
    token: server.token,
    tags,
    async close() {
      const violations = [...server.app.violations];
      await server.close();
      if (violations.length > 0)
        throw new Error(`answers that broke the contract:\n${violations.join("\n")}`);
    },
  };
}
