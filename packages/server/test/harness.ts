// Starts the real server in-process on a random port, on SQLite (a file of its own, with writes on their own
// thread, as the server runs it) or PostgreSQL (its own schema), with answers validated against the contract,
// and gives tests a small HTTP helper.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { pino } from "pino";
import { type App, buildApp } from "../src/app.js";
import { configFromEnv, type ServerConfig } from "../src/config.js";
import { actorOf, issueToken } from "../src/core/auth.js";
import { bootstrap } from "../src/server.js";
import { dropPostgresSchema, type OpenStoreOptions, openStore } from "../src/store/open.js";
import type { Actor, DevUser, Org, Store } from "../src/store/types.js";

export type Database = "sqlite" | "postgres";

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl)
  console.warn("DATABASE_URL is not set: the PostgreSQL runs of the server tests are skipped");

/** The databases to run every suite on: SQLite always, PostgreSQL when DATABASE_URL is set. */
export const databases: Database[] = postgresUrl ? ["sqlite", "postgres"] : ["sqlite"];

export async function openTestStore(
  database: Database,
  dataDir = ":memory:",
  log?: OpenStoreOptions["log"],
): Promise<{ store: Store; options: OpenStoreOptions; drop(): Promise<void> }> {
  if (database === "sqlite") {
    const store = await openStore({ dataDir, ...(log ? { log } : {}) });
    return { store, options: { dataDir }, drop: async () => {} };
  }
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const options = { databaseUrl: postgresUrl as string, postgresSchema: schema };
  const store = await openStore({ ...options, ...(log ? { log } : {}) });
  return { store, options, drop: () => dropPostgresSchema(postgresUrl as string, schema) };
}

export interface Call {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in each test
  body: any;
}

export interface TestServer {
  url: string;
  app: App;
  store: Store;
  org: Org;
  admin: DevUser;
  actor: Actor;
  /** A token holding every scope of the contract. */
  adminToken: string;
  /** The data directory of a server on a SQLite file. */
  dataDir?: string;
  /** What opens another store on the server's database (its file, or its PostgreSQL schema). */
  storeOptions: OpenStoreOptions;
  logs: string[];
  call(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<Call>;
  /** A POST of `body` as JSON with `token` (the admin token when not given) and `headers`: operation tests' call. */
  post(path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<Call>;
  /** Issues a token of the admin user (or another subject) with these scopes. */
  token(
    scopes: string[],
    options?: Parameters<typeof issueToken>[2] extends infer O
      ? Partial<O> & { org?: Org; user?: DevUser }
      : never,
  ): Promise<string>;
  /** A second organization with its own admin. */
  otherOrg(): Promise<{ org: Org; admin: DevUser; actor: Actor; token: string }>;
  close(): Promise<void>;
}

export async function startTestServer(
  database: Database,
  overrides: Partial<ServerConfig> & {
    handlers?: Parameters<typeof buildApp>[0]["handlers"];
    dataDir?: string;
    /** The store's query log (Kysely's). */
    log?: OpenStoreOptions["log"];
  } = {},
): Promise<TestServer> {
  const { handlers, dataDir: givenDir, log, ...configOverrides } = overrides;
  // SQLite runs as the server runs it: on a file, writes on a thread of their own (unless handlers are
  // replaced: those live in this thread, and so do the writes that use them).
  const ownDir =
    database === "sqlite" && givenDir === undefined
      ? mkdtempSync(join(tmpdir(), "workapi-test-"))
      : undefined;
  const dataDir = givenDir ?? ownDir;
  const { store, options: storeOptions, drop } = await openTestStore(database, dataDir, log);
  const first = await bootstrap(store);
  const logs: string[] = [];
  const logger = pino(
    { level: "info" },
    new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const config = configFromEnv(
    { NODE_ENV: "test" },
    // The test and this server share one event loop: the test's own work would count as the server falling
    // behind, so load shedding is off unless a test sets it (test/faults.test.ts checks it).
    { port: 0, host: "127.0.0.1", validateResponses: true, maxEventLoopDelayMs: 0, ...configOverrides },
  );
  const app = await buildApp({
    config,
    store,
    logger,
    ...(handlers ? { handlers } : {}),
    ...(database === "sqlite" && dataDir !== undefined && dataDir !== ":memory:"
      ? { writeThread: { dataDir } }
      : {}),
  });
  const address = await app.fastify.listen({ port: 0, host: "127.0.0.1" });
  const actor = actorOf(first.org, first.admin);
  const adminToken = first.issued
    ? first.issued.secret
    : (await issueToken(store, actor, { scopes: app.contract.scopes })).secret;

  const server: TestServer = {
    url: address,
    app,
    store,
    org: first.org,
    admin: first.admin,
    actor,
    adminToken,
    ...(database === "sqlite" && dataDir !== undefined ? { dataDir } : {}),
    storeOptions,
    logs,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? adminToken : options.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (options.raw !== undefined) body = options.raw;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const response = await fetch(`${address}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: the tests that expect JSON fail on the string
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    post(path, body, token, headers) {
      return server.call("POST", path, {
        body,
        ...(token ? { token } : {}),
        ...(headers ? { headers } : {}),
      });
    },
    async token(scopes, options = {}) {
      const org = options.org ?? first.org;
      const user = options.user ?? first.admin;
      return (await issueToken(store, actorOf(org, user), { ...options, scopes })).secret;
    },
    async otherOrg() {
      const org = await store.createOrg("Other organization");
      const admin = await store.createDevUser(org, { email: "other@example.com", full_name: "Other Admin" });
      const actor = actorOf(org, admin);
      const token = (await issueToken(store, actor, { scopes: app.contract.scopes })).secret;
      return { org, admin, actor, token };
    },
    async close() {
      await app.close();
      await store.close();
      await drop();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
  };
  return server;
}
