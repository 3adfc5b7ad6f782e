// Sandboxes: organizations of their own for test suites, made, listed and deleted over HTTP by the operator
// (a token holding `sandbox:admin`), with the journal of the requests each received. What a request in a
// sandbox does beyond its operation (scenarios, the journal) is ../http/sandboxes.ts's.
import type { Sandbox, SandboxRequest } from "@workapi/types";
import { actorOf, issueToken } from "../core/auth.js";
import type { Context } from "../core/context.js";
import { theContract } from "../core/contract.js";
import { apiError, notFound } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import { SANDBOX_ADMIN_SCOPE, type SandboxServices, type SpareKeeper } from "../core/sandbox-settings.js";
import type { JournalRow, SandboxRow } from "../store/sandboxes.js";
import type { DevUser, Org, Store } from "../store/types.js";
import { MAX_PAGE } from "./support/records.js";

/** What the demo data set's template is made with: the seed, and where to run it apart (see demoTemplate). */
type TemplateServices = Pick<SandboxServices, "seedDemo" | "scratchStore">;

/** The name of the organization the demo data set's template is kept in. */
const TEMPLATE_ORG_NAME = "Sandbox template: demo data set 1";

/**
 * The name the demo data set's copy source is kept under: the seed's data set 1 (300 works) as this release
 * makes it (the contract's version is the packages'), so that an upgraded server loads its own once.
 */
const templateName = () => `demo-seed-1@${theContract().spec.info.version}`;

export const sandboxes = {
  "sandboxes.create": async (ctx, input) => {
    await refuseSandboxCaller(ctx);
    const { settings, spares } = ctx.sandboxes;
    const store = ctx.store;
    const name = input.name ?? "sandbox";
    // A seeded sandbox is a spare made ahead when one is kept (a few ms), else a copy made now.
    const spare = input.seed ? await store.sandboxes().takeSpare(templateName(), name) : undefined;
    const org = spare ?? (await store.createOrg(name));
    const admin = spare
      ? await store.sandboxes().firstUser(org.id)
      : input.seed
        ? await copyOfDemoData(store, org, ctx.sandboxes)
        : await newAdmin(store, org);
    if (input.seed) void spares?.wanted();
    const ttl = input.ttl_seconds ?? settings.sandboxTtlSeconds;
    // The token expires with the sandbox: refused from then on, before the sweep deletes the sandbox.
    const issued = await issueToken(store, actorOf(org, admin), {
      scopes: theContract().scopes.filter((scope) => scope !== SANDBOX_ADMIN_SCOPE),
      expiresIn: ttl,
    });
    // The limit last, under the lock "sandboxes" from here to the commit, so that it holds across the
    // server's processes while the copies of creates made together run side by side (a create over the
    // limit is rolled back whole).
    await store.holdLock("sandboxes");
    const live = await store.sandboxes().countLive();
    if (live >= settings.maxSandboxes) {
      throw apiError(
        "conflict",
        `This server holds ${live} live sandboxes, its limit (WORKAPI_MAX_SANDBOXES); delete one first.`,
      );
    }
    const created = new Date();
    const row: SandboxRow = {
      org_id: org.id,
      owner_org_id: ctx.org.id,
      name,
      seeded: input.seed ? 1 : 0,
      created_date: created.toISOString(),
      expires_at: new Date(
        created.getTime() + (input.ttl_seconds ?? settings.sandboxTtlSeconds) * 1000,
      ).toISOString(),
    };
    await store.sandboxes().insert({ ...row, org_number: org.number });
    return { sandbox: { ...toSandbox(row), token: issued.secret } };
  },

  "sandboxes.get": async (ctx, input) => {
    return { sandbox: toSandbox(await mustGetSandbox(ctx, input.id)) };
  },

  "sandboxes.list": async (ctx, input) => {
    await refuseSandboxCaller(ctx);
    const page = await ctx.store.sandboxes().list(ctx.org.id, pageOf(input));
    return { sandboxes: page.items.map(toSandbox), ...cursors(page) };
  },

  "sandboxes.delete": async (ctx, input) => {
    const sandbox = await mustGetSandbox(ctx, input.id);
    await ctx.store.holdLock(`sandbox:${sandbox.org_id}`);
    await ctx.store.sandboxes().deleteOrg(sandbox.org_id);
    return {};
  },

  "sandboxes.requests.list": async (ctx, input) => {
    const sandbox = await mustGetSandbox(ctx, input.id);
    const page = await ctx.store.sandboxes().requests(sandbox.org_id, input.operation, pageOf(input));
    return { requests: page.items.map(toRequest), ...cursors(page) };
  },
} satisfies Partial<Handlers>;

/** A sandbox's own tokens never hold `sandbox:admin`; this also refuses any other token of a sandbox. */
async function refuseSandboxCaller(ctx: Context): Promise<void> {
  if (await ctx.store.sandboxes().byOrg(ctx.org.id)) {
    throw apiError("forbidden", "A sandbox cannot make, see or delete sandboxes; use the operator's token.", {
      object_ids: [],
    });
  }
}

/** A live sandbox the caller's organization made, or the typed 404 (another's is as if it did not exist). */
async function mustGetSandbox(ctx: Context, id: string): Promise<SandboxRow> {
  await refuseSandboxCaller(ctx);
  const sandbox = await ctx.store.sandboxes().byOrg(id);
  if (!sandbox || sandbox.owner_org_id !== ctx.org.id || sandbox.expires_at <= new Date().toISOString()) {
    throw notFound(`Sandbox '${id}'`);
  }
  return sandbox;
}

async function newAdmin(store: Store, org: Org): Promise<DevUser> {
  return store.createDevUser(org, {
    email: "admin@workapi.local",
    full_name: "Administrator",
    display_name: "admin",
  });
}

/**
 * A copy of the demo data set in `org`, whose first user (the admin) it answers: the rows of the organization
 * kept for copies (see demoTemplate), copied in a few statements instead of the seed run again.
 */
async function copyOfDemoData(store: Store, org: Org, services: TemplateServices): Promise<DevUser> {
  const template = await store.getOrg(await demoTemplate(store, services));
  if (!template) throw new Error("the sandbox template is gone");
  return store.sandboxes().copyOrg(template, org);
}

/**
 * The organization the demo data set is kept in for copies, made by the seed when this release has none
 * (under the lock "sandbox-template", taken only while it is missing, so once however many processes ask).
 */
async function demoTemplate(store: Store, services: TemplateServices): Promise<string> {
  const rows = store.sandboxes();
  const name = templateName();
  const kept = await rows.template(name);
  if (kept) return kept;
  await store.holdLock("sandbox-template");
  const made = await rows.template(name);
  if (made) return made;
  const template = await store.createOrg(TEMPLATE_ORG_NAME);
  if (store.dialect === "postgres" && services.scratchStore) {
    // Seeded in memory and written in a few statements: the seed's statements, each a round trip to
    // PostgreSQL, took 1.8-2.3 s here; seeded in memory and written, the same rows took 0.9 s.
    const scratch = await services.scratchStore();
    try {
      const org = await scratch.createOrg(TEMPLATE_ORG_NAME);
      await services.seedDemo(scratch, org, await newAdmin(scratch, org));
      await rows.writeOrgRows(await scratch.sandboxes().orgRows(org), template);
    } finally {
      await scratch.close();
    }
    await rows.analyze();
    await rows.setTemplate(name, template.id);
    return template.id;
  }
  const admin = await newAdmin(store, template);
  // Inside this transaction; PostgreSQL's statistics are gathered by ANALYZE alone (no VACUUM in a transaction).
  const seeding = new Proxy(store, {
    get(target, property) {
      if (property === "updateStatistics") return () => rows.analyze();
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  await services.seedDemo(seeding, template, admin);
  await rows.setTemplate(name, template.id);
  return template.id;
}

/** The name of a spare's organization until a create takes it (and renames it). */
const SPARE_NAME = "Spare seeded sandbox";
/** How often the keeper of spares looks whether the requests being served are done (ms). */
const IDLE_POLL_MS = 25;

/**
 * Seeded sandboxes made ahead, so that a suite's files starting together each get one at once: copying the
 * demo data set writes some 1,100 records under ten indexes (about 30 ms on a SQLite file and 150 ms of
 * PostgreSQL's work), and sixteen at once took 2.5 s on PostgreSQL on two cores. Once this release's
 * template exists (the first seeded create made it), each seeded create asks the keeper for more, and it
 * makes them one transaction each, up to WORKAPI_SANDBOX_SPARES, only while no write is being served
 * (`busy`): a spare never makes a suite's write wait behind it, and no write waits behind more than one. A spare is an
 * organization like a sandbox's, deactivated, with no sandbox row and no usable token (a copy's tokens
 * authenticate nobody), listed in `sandbox_spares` under its template's name; `sandboxes.create` takes one
 * in its own transaction. Every process keeps them under one lock ("sandbox-spares"), so the number kept
 * holds across processes; spares of an earlier release's template are deleted first. Failures stop a round
 * (the next seeded create starts another); closing waits for the spare being made.
 */
export function spareSandboxes(
  store: Store,
  services: Pick<SandboxServices, "settings">,
  busy: () => boolean,
): SpareKeeper {
  let round: Promise<void> | undefined;
  let closed = false;
  /** Makes one spare, or deletes one stale spare; answers whether there was anything to do. */
  const makeOne = () =>
    store.transaction(async (tx) => {
      await tx.holdLock("sandbox-spares");
      const rows = tx.sandboxes();
      const template = templateName();
      const [stale] = await rows.staleSpares(template, 1);
      if (stale) {
        await rows.deleteOrg(stale);
        return true;
      }
      if ((await rows.countSpares(template)) >= services.settings.sandboxSpares) return false;
      const templateId = await rows.template(template);
      const from = templateId && (await tx.getOrg(templateId));
      if (!from) return false;
      const org = await tx.createOrg(SPARE_NAME);
      await tx.setOrgStatus(org.id, "deactivated");
      await rows.copyOrg(from, org);
      await rows.addSpare(org.id, template);
      return true;
    });
  const run = async () => {
    try {
      while (!closed) {
        while (!closed && busy()) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        if (closed || !(await makeOne())) return;
      }
    } catch (error) {
      if (!closed) process.emitWarning(`sandbox spares: ${(error as Error).message}`);
    } finally {
      round = undefined;
    }
  };
  return {
    wanted() {
      if (!closed && !round && services.settings.sandboxSpares > 0) round = run();
      return round ?? Promise.resolve();
    },
    async close() {
      closed = true;
      await round;
    },
  };
}

/**
 * Makes the demo data set's template now, unless this release's exists: startStandIn does before it answers,
 * so that a suite's first seeded sandboxes are copies, not a seed run (a second of work, which every create
 * arriving meanwhile waits for).
 */
export async function prepareDemoTemplate(store: Store, services: TemplateServices): Promise<void> {
  await store.transaction((tx) => demoTemplate(tx, services));
}

function pageOf(input: { cursor?: string; mode?: "after" | "before"; limit?: number }) {
  return {
    ...(input.cursor ? { cursor: input.cursor } : {}),
    mode: input.mode ?? "after",
    limit: Math.min(input.limit ?? 50, MAX_PAGE),
  };
}

function cursors(page: { next_cursor?: string; prev_cursor?: string }) {
  return {
    ...(page.next_cursor ? { next_cursor: page.next_cursor } : {}),
    ...(page.prev_cursor ? { prev_cursor: page.prev_cursor } : {}),
  };
}

function toSandbox(row: SandboxRow): Sandbox {
  return {
    id: row.org_id,
    name: row.name,
    seeded: Boolean(row.seeded),
    created_date: row.created_date,
    expires_at: row.expires_at,
  };
}

function toRequest(row: JournalRow): SandboxRequest {
  return {
    operation: row.operation,
    method: row.method,
    path: row.path,
    query: row.query,
    ...(row.body !== null ? { body: JSON.parse(row.body) } : {}),
    status: Number(row.status),
    time: row.time,
  };
}
