// The store's suites run unchanged against SQLite in memory, SQLite in a data directory and PostgreSQL
// (when DATABASE_URL names one; each run works in its own random schema, dropped afterwards). A suite gets the
// store it works on, and the helpers every suite shares, through a StoreEnv.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LogEvent } from "kysely";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { dropPostgresSchema, type OpenStoreOptions, openStore } from "../../src/store/open.js";
import { type Actor, type Org, type Store, StoreError, type UserRef } from "../../src/store/types.js";

export const DATABASE_URL = process.env.DATABASE_URL;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Whether `promise` settles within `ms` (true), or is still pending then (false). */
export const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

export interface Target {
  options: OpenStoreOptions;
  /** Opening `options` again reaches the same database (false for `:memory:`). */
  reopenable: boolean;
  /** Several stores can work on the database at once from this process (PostgreSQL's pool). */
  multiConnection: boolean;
  cleanup(): Promise<void>;
}

function sqliteMemory(): Target {
  return {
    options: { dataDir: ":memory:" },
    reopenable: false,
    multiConnection: false,
    cleanup: async () => {},
  };
}

function sqliteDir(): Target {
  const dir = mkdtempSync(join(tmpdir(), "workapi-store-"));
  return {
    options: { dataDir: join(dir, "data") },
    reopenable: true,
    multiConnection: false,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function randomSchema(): string {
  return `store_test_${randomBytes(6).toString("hex")}`;
}

function postgres(databaseUrl: string): Target {
  const schema = randomSchema();
  return {
    options: { databaseUrl, postgresSchema: schema },
    reopenable: true,
    multiConnection: true,
    cleanup: () => dropPostgresSchema(databaseUrl, schema),
  };
}

export interface StoreEnv {
  target: Target;
  store: Store;
  /** SQL of every statement the suite's store runs (Kysely's query log). */
  queries: string[];
  /** What the store logged (migrations). */
  messages: string[];
  /** The target's options, logging into `queries` and `messages`. */
  options(): OpenStoreOptions;
  /** A new organization with one user, as an actor: each test works in organizations of its own. */
  newActor(name?: string): Promise<Actor & { org: Org }>;
  /** A work record of type issue with `data`. */
  work(
    actor: Actor,
    data: Record<string, unknown>,
    extra?: Partial<Record<string, unknown>>,
  ): ReturnType<Store["createRecord"]>;
  expectStoreError(promise: Promise<unknown>, code: StoreError["code"], field?: string): Promise<void>;
}

if (!DATABASE_URL) {
  console.warn("test/store: DATABASE_URL is not set, so the PostgreSQL store tests are skipped");
}

/** Runs `suite` once per database, each on a store of its own. */
export function describeStores(topic: string, suite: (env: StoreEnv) => void): void {
  describe(`${topic} on SQLite in memory`, () => suite(storeEnv(sqliteMemory)));
  describe(`${topic} on SQLite in a data directory`, () => suite(storeEnv(sqliteDir)));
  describe.skipIf(!DATABASE_URL)(`${topic} on PostgreSQL`, () =>
    suite(storeEnv(() => postgres(DATABASE_URL as string))),
  );
}

function storeEnv(makeTarget: () => Target): StoreEnv {
  const env: StoreEnv = {
    target: undefined as unknown as Target,
    store: undefined as unknown as Store,
    queries: [],
    messages: [],
    options: () => ({
      ...env.target.options,
      logger: { info: (m) => env.messages.push(m), warn: (m) => env.messages.push(m) },
      log: (event: LogEvent) => {
        if (event.level === "query") env.queries.push(event.query.sql);
      },
    }),
    async newActor(name = "Org") {
      const org = await env.store.createOrg(name);
      const user = await env.store.createDevUser(org, {
        email: "ada@example.com",
        full_name: "Ada Lovelace",
      });
      return { org, orgId: org.id, orgNumber: org.number, user: userRef(user) };
    },
    work: (actor, data, extra = {}) =>
      env.store.createRecord(actor, {
        kind: "work",
        idType: "issue",
        prefix: "ISS",
        label: String(data.title ?? ""),
        data,
        ...extra,
      }),
    async expectStoreError(promise, code, field) {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe(code);
      if (field !== undefined) expect((error as StoreError).field).toBe(field);
    },
  };
  beforeAll(async () => {
    env.target = makeTarget();
    env.store = await openStore(env.options());
  });
  afterAll(async () => {
    await env.store?.close();
    await env.target?.cleanup();
  });
  return env;
}

function userRef(user: UserRef): UserRef {
  const { type, id, display_id, display_name, email, full_name, state } = user;
  return { type, id, display_id, display_name, email, full_name, state };
}
