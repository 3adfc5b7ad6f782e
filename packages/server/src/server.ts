// Starting and stopping the service: open the store (migrations run), create the first organization and its
// admin token on first start, listen, and shut down gracefully on SIGTERM/SIGINT.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { destination as logDestination, pino } from "pino";
import { type App, buildApp } from "./app.js";
import type { ServerConfig } from "./config.js";
import { actorOf, hashToken, type IssuedToken, issueToken } from "./core/auth.js";
import { theContract } from "./core/contract.js";
import { runSeed } from "./seed-cli.js";
import { openStore } from "./store/open.js";
import type { DevUser, Org, Store } from "./store/types.js";

export interface Bootstrap {
  org: Org;
  admin: DevUser;
  /** Set only when this call created the organization. */
  issued?: IssuedToken;
  /** The admin token was the operator's (WORKAPI_ADMIN_TOKEN), not a new random one. */
  given?: boolean;
  /** The operator gave an admin token, but the organization existed already and that token is not one of its. */
  givenTokenUnknown?: boolean;
}

export interface BootstrapOptions {
  /** The admin token to make, if this call creates the organization (./config.ts adminToken). */
  adminToken?: string | undefined;
}

/** Every scope the contract names: what the first admin token holds. */
export function allScopes(): string[] {
  return theContract().scopes;
}

/**
 * Creates the first organization, its admin user and an admin token, unless an organization exists. Exactly
 * once however many processes start together on an empty database: the check and the creation run in one
 * transaction under the lock "bootstrap" (see Store.holdLock), so a process that waited for it finds the
 * organization the first one made, and reuses it without issuing a token. An admin token the operator gives
 * is the one made; given to a later start, it is only looked up, so that start can say when it is not known.
 */
export async function bootstrap(store: Store, options: BootstrapOptions = {}): Promise<Bootstrap> {
  const { adminToken } = options;
  // The usual case, an organization that exists, needs no lock.
  const first =
    (await existingOrganization(store)) ??
    (await store.transaction(async (tx) => {
      await tx.holdLock("bootstrap");
      return (
        (await existingOrganization(tx)) ??
        createOrganization(tx, "Default organization", adminToken === undefined ? {} : { secret: adminToken })
      );
    }));
  if (adminToken === undefined) return first;
  if (first.issued) return { ...first, given: true };
  const known = await store.findTokenByHash(hashToken(adminToken));
  return known?.org_id === first.org.id ? first : { ...first, givenTokenUnknown: true };
}

/** The first organization and its first user, when an organization exists. */
async function existingOrganization(store: Store): Promise<Bootstrap | undefined> {
  const [existing] = await store.listOrgs();
  if (!existing) return undefined;
  const [admin] = await store.listDevUsers(existing.id);
  if (!admin) throw new Error(`organization ${existing.id} has no users; the database is damaged`);
  return { org: existing, admin };
}

/**
 * Creates an organization, its admin user and an admin token holding every scope, in one transaction; the
 * token's secret is `secret` when given, else a new random one.
 */
export async function createOrganization(
  store: Store,
  name: string,
  { secret }: { secret?: string } = {},
): Promise<Required<Pick<Bootstrap, "org" | "admin" | "issued">>> {
  return store.transaction(async (tx) => {
    const org = await tx.createOrg(name);
    const admin = await tx.createDevUser(org, {
      email: "admin@workapi.local",
      full_name: "Administrator",
      display_name: "admin",
    });
    const issued = await issueToken(tx, actorOf(org, admin), {
      scopes: allScopes(),
      ...(secret === undefined ? {} : { secret }),
    });
    return { org, admin, issued };
  });
}

/**
 * Refuses to write a token where a token of another organization is kept: `file` may be written when it is
 * missing, or holds no token this server knows, or a token of `orgId`.
 */
export async function requireTokenFileFree(store: Store, file: string, orgId?: string): Promise<void> {
  if (!existsSync(file)) return;
  const kept = readFileSync(file, "utf8").trim();
  const token = kept ? await store.findTokenByHash(hashToken(kept)) : undefined;
  if (token && token.org_id !== orgId) {
    throw new Error(`${file} holds a token of organization ${token.org_id}; choose another file`);
  }
}

/** Writes a token where only its owner can read it. */
export function writeTokenFile(file: string, secret: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * What an operator command does after `bootstrap` created the first organization (an empty data directory):
 * the admin token is written and printed exactly as a first `serve` does.
 */
export function reportFirstStart(
  dataDir: string,
  first: Bootstrap,
  print: (line: string) => void,
  url = "http://localhost:8080",
): void {
  if (first.givenTokenUnknown) {
    print(
      "  WORKAPI_ADMIN_TOKEN is not a token of this server: the organization existed before, and the setting only makes the first start's token",
    );
  }
  if (!first.issued) return;
  const file = writeAdminToken(dataDir, first.issued.secret);
  print("");
  if (first.given) {
    print("First start: created an organization; its admin token is the value of WORKAPI_ADMIN_TOKEN:");
    print(`  saved in ${file} (readable only by you)`);
    print(`  try: curl -H "Authorization: Bearer $WORKAPI_ADMIN_TOKEN" ${url}/tags.list`);
    return;
  }
  print("First start: created an organization and an admin token (shown once; also written to a file):");
  print(`  ${first.issued.secret}`);
  print(`  saved in ${file} (readable only by you)`);
  print(`  try: curl -H "Authorization: Bearer $(cat ${file})" ${url}/tags.list`);
}

/** Writes the admin token where only its owner can read it. */
export function writeAdminToken(dataDir: string, secret: string): string {
  const file = join(dataDir, "admin-token");
  writeTokenFile(file, secret);
  return file;
}

/**
 * Brings the query planner's statistics up to date now and then every `minutes` (0: now only), so that the
 * plans stay right as tables grow (./store/statistics.ts). A failure is logged; the server goes on.
 */
export function keepStatistics(
  store: Store,
  minutes: number,
  logger: { warn(object: object, message: string): void },
): { stop(): void } {
  // One update at a time: a slow one is not joined by the next.
  let busy = false;
  const update = () => {
    if (busy) return;
    busy = true;
    store
      .updateStatistics()
      .catch((error: unknown) => logger.warn({ err: error }, "updating the planner's statistics failed"))
      .finally(() => {
        busy = false;
      });
  };
  update();
  const timer = minutes > 0 ? setInterval(update, minutes * 60_000) : undefined;
  timer?.unref();
  return { stop: () => clearInterval(timer) };
}

export interface Running {
  app: App;
  store: Store;
  url: string;
  /** Where the server listens, as Fastify says it. */
  address: string;
  stop(): Promise<void>;
}

/**
 * Stops accepting and lets the requests in flight finish for at most `timeoutMs` (0: as long as they take);
 * then the connections still open (a client stalled in its body, an answer nobody reads) are closed.
 */
async function drainThenClose(app: App, timeoutMs: number, logger: { warn(o: object, m: string): void }) {
  const closed = app.close();
  if (timeoutMs === 0) return closed;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  if ((await Promise.race([closed, late])) === "late") {
    const open = await new Promise<number>((resolve) =>
      app.fastify.server.getConnections((_error, count) => resolve(count)),
    );
    logger.warn(
      { connections: open },
      "shutdown: requests still in flight after the drain time; closing them",
    );
    app.fastify.server.closeAllConnections();
  }
  clearTimeout(timer);
  await closed;
}

export interface StartOptions {
  /** Stop gracefully on SIGTERM/SIGINT, then exit. */
  signals?: boolean;
  print?: (line: string) => void;
  seedOnFirstStart?: boolean;
  /** Keep the planner's statistics up to date (default); of several workers, one does (./cluster.ts). */
  statistics?: boolean;
}

/**
 * What a started server prints: where it listens, its docs and database, and where the admin token is (the
 * token itself on first start). Returns the URL it is reached at from this machine.
 */
export function announce(
  config: ServerConfig,
  first: Bootstrap,
  address: string,
  print: (line: string) => void,
  workers?: string,
): string {
  // `address` is where the server really listens; on every interface (0.0.0.0, ::) it is reached locally
  // through localhost.
  const url = address.replace("0.0.0.0", "localhost").replace("[::]", "localhost");
  const everywhere = url !== address ? ` (every interface; from this machine ${url})` : "";
  print(`workapi server listening on ${address}${everywhere}`);
  print(`  docs:     ${url}/docs`);
  print(`  database: ${config.databaseUrl ? "PostgreSQL" : `SQLite in ${config.dataDir}`}`);
  if (workers) print(`  workers:  ${workers}`);
  const tokenFile = join(config.dataDir, "admin-token");
  if (!first.issued) {
    print(
      existsSync(tokenFile)
        ? `  admin token: in ${tokenFile}`
        : `  admin token: not in ${tokenFile}; the organization ${first.org.id} already existed (made by an earlier start or another process): issue one with \`workapi-server token create\``,
    );
  }
  reportFirstStart(config.dataDir, first, print, url);
  return url;
}

/**
 * The server's log on standard output, written in blocks of 4 KiB at least (or every 250 ms) instead of one
 * write per line: with one access-log line per request, a system call per line was a tenth of a kept read's
 * time. pino flushes what is left when the process exits; `stopFlushing` writes it at once and ends the timer.
 */
function serverLogger(level: string) {
  const destination = logDestination({ dest: 1, minLength: 4096, sync: false });
  const timer = setInterval(() => destination.flush(), 250);
  timer.unref();
  const logger = pino({ level }, destination);
  const stopFlushing = () => {
    clearInterval(timer);
    destination.flushSync();
  };
  return { logger, stopFlushing };
}

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<Running> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { logger, stopFlushing } = serverLogger(config.logLevel);
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
    logger,
    // On a SQLite file the write thread (below) runs the checkpoint thread; this store's commits are few.
    checkpoints: "backstop",
  });
  const first = await bootstrap(store, { adminToken: config.adminToken });
  if (first.issued && options.seedOnFirstStart)
    await runSeed(store, first.org, first.admin, { settings: config });
  const statistics =
    options.statistics === false
      ? { stop() {} }
      : keepStatistics(store, config.statisticsIntervalMinutes, logger);
  // On a SQLite file, writes run on a thread of their own (src/write-thread/).
  const writeThread =
    config.databaseUrl || config.dataDir === ":memory:" ? {} : { writeThread: { dataDir: config.dataDir } };
  const app = await buildApp({ config, store, logger, ...writeThread });
  const address = await app.fastify.listen({ port: config.port, host: config.host });
  const url = announce(config, first, address, print);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      statistics.stop();
      await drainThenClose(app, config.shutdownTimeoutMs, logger);
      await store.close();
      stopFlushing();
    })();
    return stopping;
  };
  if (options.signals) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        logger.info({ signal }, "shutting down");
        stop().then(
          () => process.exit(0),
          (error: unknown) => {
            logger.error({ err: error }, "shutdown failed");
            process.exit(1);
          },
        );
      });
    }
  }
  return { app, store, url, address, stop };
}
