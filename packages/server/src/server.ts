// Starting and stopping the service: open the store (migrations run), create the first organization and its
// admin token on first start, listen, and shut down gracefully on SIGTERM/SIGINT.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pino } from "pino";
import { type App, buildApp } from "./app.js";
import type { ServerConfig } from "./config.js";
import { actorOf, type IssuedToken, issueToken } from "./http/auth.js";
import { loadContract } from "./http/contract.js";
import { runSeed } from "./seed-cli.js";
import { openStore } from "./store/database.js";
import type { DevUser, Org, Store } from "./store/types.js";

export interface Bootstrap {
  org: Org;
  admin: DevUser;
  /** Set only when this call created the organization. */
  issued?: IssuedToken;
}

/** Every scope the contract names: what the first admin token holds. */
export function allScopes(): string[] {
  return loadContract({ validateResponses: false }).scopes;
}

/** Creates the first organization, its admin user and an admin token, unless an organization exists. */
export async function bootstrap(store: Store): Promise<Bootstrap> {
  const [existing] = await store.listOrgs();
  if (existing) {
    const [admin] = await store.listDevUsers(existing.id);
    if (!admin) throw new Error(`organization ${existing.id} has no users; the database is damaged`);
    return { org: existing, admin };
  }
  return store.transaction(async (tx) => {
    const org = await tx.createOrg("Default organization");
    const admin = await tx.createDevUser(org, {
      email: "admin@workapi.local",
      full_name: "Administrator",
      display_name: "admin",
    });
    const issued = await issueToken(tx, actorOf(org, admin), { scopes: allScopes() });
    return { org, admin, issued };
  });
}

/** Writes the admin token where only its owner can read it. */
export function writeAdminToken(dataDir: string, secret: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "admin-token");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export interface Running {
  app: App;
  store: Store;
  url: string;
  stop(): Promise<void>;
}

export async function startServer(
  config: ServerConfig,
  options: { signals?: boolean; print?: (line: string) => void; seedOnFirstStart?: boolean } = {},
): Promise<Running> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logger = pino({ level: config.logLevel });
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
    logger,
  });
  const first = await bootstrap(store);
  if (first.issued && options.seedOnFirstStart) await runSeed(store, first.org, first.admin, {});
  const app = await buildApp({ config, store, logger });
  const address = await app.fastify.listen({ port: config.port, host: config.host });
  const url = address.replace("0.0.0.0", "localhost").replace("[::]", "localhost");

  print(`workapi server listening on ${url}`);
  print(`  docs:     ${url}/docs`);
  print(`  database: ${config.databaseUrl ? "PostgreSQL" : `SQLite in ${config.dataDir}`}`);
  if (first.issued) {
    const file = writeAdminToken(config.dataDir, first.issued.secret);
    print("");
    print("First start: created an organization and an admin token (shown once; also written to a file):");
    print(`  ${first.issued.secret}`);
    print(`  saved in ${file} (readable only by you)`);
    print(`  try: curl -H "Authorization: Bearer $(cat ${file})" ${url}/tags.list`);
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await app.close(); // stops accepting, lets in-flight requests finish
      await store.close();
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
  return { app, store, url, stop };
}
