// Demo data: a realistic organization in which every read operation returns something. Every record an
// operation of the interface can make is made through the executor (./calls.ts), with the handlers the HTTP
// operations use, so the data obeys the same rules (hierarchy, stages, timelines, uniqueness). Three kinds of
// record no operation makes are written to the store directly, each the way the server itself writes it:
//   - the dev users besides the admin (./people-and-tags.ts, store.createDevUser: the interface has no
//     operation that creates a user; `org create` makes the admin the same way);
//   - the built-in states the custom stages stand on (./stages.ts, ensureStates: the handlers create them on
//     first use the same way, and the seed needs their ids before any handler has run);
//   - the recorded app sessions (makeSessions below, storeSession: observability.sessions.data.get only reads
//     them; recordings arrive from the apps, outside the interface).
// Random choices come from a seeded generator: the same seed gives the same data.
// Each family (or group of families made together) has its builder in this folder; seed() runs them in order,
// so the records, and the random draws, come in the same order every time.
import type { SandboxSettings } from "../config.js";
import { actorOf } from "../core/auth.js";
import { theContract } from "../core/contract.js";
import type { DemoSeeder, SandboxServices } from "../core/sandbox-settings.js";
import { storeSession } from "../operations/observability.js";
import { spareSandboxes } from "../operations/sandboxes.js";
import { openStore } from "../store/open.js";
import type { DevUser, Org, Store } from "../store/types.js";
import { type Call, seedCaller } from "./calls.js";
import { makeSchedules, makeSlas, makeSurveys } from "./configuration.js";
import { makeArticles, makeCodeChanges, makeComments, makeCustomObjects, makeUploads } from "./content.js";
import type { Builder, Count, Setup } from "./context.js";
import { makeAccounts, makeConversations } from "./customers.js";
import { mobileSession, random, webSession } from "./data.js";
import { makeParts } from "./parts.js";
import { makePeople, makeTags, makeTokens } from "./people-and-tags.js";
import { makeSandboxes } from "./sandboxes.js";
import { makeStageDiagrams, makeStages } from "./stages.js";
import { makeSprint, makeVistas } from "./vistas.js";
import { makeWorks } from "./works.js";

export interface SeedOptions {
  /** How many work items to create (default 300). */
  works?: number;
  /** Seed of the random choices (default 1). */
  seed?: number;
  /** Also make the sandboxes the docs' examples name (default true; not in a sandbox's own data). */
  sandboxes?: boolean;
  /** The settings of the sandboxes the seed makes (default: the settings' defaults). */
  sandboxSettings?: SandboxSettings;
  /** Called as work items are created: (done, total). */
  onProgress?: (done: number, total: number) => void;
}

export interface SeedSummary {
  [family: string]: number;
}

/**
 * Loads the demo data set into the organization, beside whatever the organization already holds (tags of the
 * same names are reused). Safe to run again: when this data set (this `seed`) is already loaded, nothing is
 * made and the summary is empty.
 */
export async function seed(
  store: Store,
  org: Org,
  admin: DevUser,
  options: SeedOptions = {},
): Promise<SeedSummary> {
  if (await demoDataLoaded(store, org, options.seed ?? 1)) return {};
  const rnd = random(options.seed ?? 1);
  const contract = theContract();
  const operations = new Map(
    contract.operations
      .filter((operation) => operation.method === "POST")
      .map((operation) => [operation.name, operation] as const),
  );
  const summary: SeedSummary = {};
  const count: Count = (family, n = 1) => {
    summary[family] = (summary[family] ?? 0) + n;
  };
  /** Runs `fn` in one transaction, with a caller on it. */
  const run = async <T>(fn: (call: Call, tx: Store) => Promise<T>): Promise<T> =>
    store.transaction((tx) =>
      fn(seedCaller(tx, org, admin, operations, contract.scopes, options.sandboxSettings), tx),
    );

  const setup = await run((call, tx) => makeSetup({ call, rnd, count }, tx, org, admin));
  const works = await makeWorks(run, { rnd, count }, setup, {
    total: options.works ?? 300,
    seed: options.seed ?? 1,
    onProgress: options.onProgress,
    updateStatistics: () => store.updateStatistics(),
  });
  // Customers and their conversations, content, configuration.
  await run(async (call) => {
    const builder: Builder = { call, rnd, count };
    await makeConversations(builder, setup);
    await makeArticles(builder, setup);
    await makeCodeChanges(builder);
    await makeSurveys(builder);
    await makeSlas(builder);
    await makeSchedules(builder);
    await makeVistas(builder, works.workIds);
    await makeCustomObjects(builder);
    await makeComments(builder, works);
    if (options.sandboxes !== false) await makeSandboxes(builder);
  });
  await makeSessions(store, org, admin, count);
  // A bulk load: the planner's statistics would otherwise be those of the empty tables (on PostgreSQL,
  // until autovacuum gets to them, if it runs at all).
  await store.updateStatistics();
  return summary;
}

/**
 * The sandboxes' operations' services, for a server with these settings: the seed of a seeded sandbox's
 * template is this data set (without the docs' sandboxes, which a sandbox's own data does not hold). The
 * server's composition roots (../app.ts, ../write-thread/thread.ts, ../stand-in.ts) hand them down, so that
 * ../operations/sandboxes.ts reaches the seed without importing it.
 */
export function sandboxServices(settings: SandboxSettings): SandboxServices {
  const seedDemo: DemoSeeder = (store, org, admin) =>
    seed(store, org, admin, { sandboxes: false, sandboxSettings: settings });
  return {
    settings,
    seedDemo,
    keepSpares: (store, busy) => spareSandboxes(store, { settings }, busy),
    scratchStore: () => openStore({ dataDir: ":memory:" }),
  };
}

/** Whether the data set of `seedNumber` is loaded: its first work item (external_ref `seed-<n>-1`) exists. */
export async function demoDataLoaded(store: Store, org: Org, seedNumber: number): Promise<boolean> {
  const found = await store.findRecords(org.id, "work", {
    filter: { op: "eq", path: "external_ref", value: `seed-${seedNumber}-1` },
    limit: 1,
  });
  return found.length > 0;
}

/**
 * People and their tokens, tags, the product hierarchy, stages and a stage diagram per work type, customers,
 * the sprint and the files not attached yet (before the works' own files, so that they come first).
 */
async function makeSetup(builder: Builder, tx: Store, org: Org, admin: DevUser): Promise<Setup> {
  const userIds = await makePeople(tx, org, admin, builder.count);
  await makeTokens(builder);
  const { tagIds, severity } = await makeTags(builder);
  const partIds = await makeParts(builder, userIds);
  const stageIds = await makeStages(builder, tx, org, admin);
  await makeStageDiagrams(builder, stageIds);
  const accountIds = await makeAccounts(builder, userIds);
  const sprint = await makeSprint(builder);
  await makeUploads(builder);
  return { userIds, tagIds, severity, partIds, stageIds, accountIds, sprint };
}

/** Recorded app sessions (three mobile, three web) for the observability operations. */
async function makeSessions(store: Store, org: Org, admin: DevUser, count: Count): Promise<void> {
  await store.transaction(async (tx) => {
    const actor = actorOf(org, admin);
    for (let i = 0; i < 3; i++) {
      await storeSession(tx, actor, mobileSession(i));
      await storeSession(tx, actor, webSession(i));
      count("observability_sessions", 2);
    }
  });
}
