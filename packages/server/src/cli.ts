#!/usr/bin/env node
// The operator's entry points: serve, token create / revoke, org create / list / deactivate, seed.
import { createRequire } from "node:module";
import { Command, InvalidArgumentError } from "commander";
import { serve } from "./cluster.js";
import { configFromFlags, type ServerConfig } from "./config.js";
import { actorOf, issueToken } from "./core/auth.js";
import { runSeed } from "./seed-cli.js";
import {
  bootstrap,
  createOrganization,
  reportFirstStart,
  requireTokenFileFree,
  writeTokenFile,
} from "./server.js";
import { type AnySetting, settingsOf } from "./settings.js";
import { openStore } from "./store/open.js";
import type { Store } from "./store/types.js";

function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError("expected a whole number");
  return parsed;
}

/** A flag's help: what it sets, the environment variable that also sets it, and its default. */
function help(setting: AnySetting): string {
  const scale = setting.flag?.scale ?? 1;
  const fallback =
    typeof setting.default === "number" && scale !== 1
      ? `${setting.default} ms: ${setting.default / scale} s`
      : setting.default === undefined || setting.default === false || Array.isArray(setting.default)
        ? ""
        : String(setting.default);
  return `${setting.help} (env ${setting.env}${fallback ? `, default ${fallback}` : ""})`;
}

/**
 * Adds the flags of the settings table (./settings.ts) to `command`: those of every command that opens the
 * database, or those of `serve`. A flag of a whole-number setting is refused here unless it is one.
 */
function withFlags(command: Command, which: "store" | "serve"): Command {
  for (const [, setting] of settingsOf()) {
    const flag = setting.flag;
    if (!flag || (which === "store") !== (flag.everyCommand === true)) continue;
    const spelled = `${flag.short ? `${flag.short}, ` : ""}${flag.name}${flag.value ? ` ${flag.value}` : ""}`;
    if (typeof setting.default === "number") command.option(spelled, help(setting), wholeNumber);
    else command.option(spelled, help(setting));
  }
  return command;
}

interface CommonFlags {
  dataDir?: string;
  databaseUrl?: string;
}

function withStoreFlags(command: Command): Command {
  return withFlags(command, "store");
}

function configOf(flags: CommonFlags & Record<string, unknown>): ServerConfig {
  return configFromFlags(flags);
}

/** The first organization, created (its admin token written and printed) when the database is empty. */
async function firstOrg(store: Store, flags: CommonFlags) {
  const { dataDir, adminToken } = configOf(flags as CommonFlags & Record<string, unknown>);
  const first = await bootstrap(store, { adminToken });
  // On stderr: the stdout of `token create` and `org create` is the one secret they issue, for scripts.
  reportFirstStart(dataDir, first, (line) => process.stderr.write(`${line}\n`));
  return first;
}

async function withStore<T>(flags: CommonFlags, fn: (store: Store) => Promise<T>): Promise<T> {
  const config = configOf(flags as CommonFlags & Record<string, unknown>);
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
  });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The version in this package's package.json (beside src/ and dist/ alike). */
function packageVersion(): string {
  return (createRequire(import.meta.url)("../package.json") as { version: string }).version;
}

const program = new Command("workapi-server")
  .description("Reference server of the workapi work-management interface")
  .version(packageVersion(), "-V, --version", "print the server's version")
  .showHelpAfterError("(run with --help for usage)");

withFlags(
  withStoreFlags(
    program.command("serve").description("start the server (creates an admin token on first start)"),
  ),
  "serve",
).action(async (flags) => {
  const config = configOf(flags);
  await serve(config, { seedOnFirstStart: config.seed });
});

withStoreFlags(program.command("seed").description("load the demo data set into the first organization"))
  .option("--works <n>", "how many work items to create (default 300)", wholeNumber)
  .option(
    "--random-seed <n>",
    "seed of the random choices; the same seed gives the same data (default 1)",
    wholeNumber,
  )
  .action(async (flags) => {
    await withStore(flags, async (store) => {
      const { org, admin } = await firstOrg(store, flags);
      const settings = configOf(flags);
      await runSeed(store, org, admin, { works: flags.works, seed: flags.randomSeed, settings });
    });
  });

const token = program.command("token").description("issue and revoke access tokens");

withStoreFlags(token.command("create").description("issue a token and print its secret (shown once)"))
  .requiredOption("--scopes <list>", "comma-separated scopes, e.g. tag:read,issue:all")
  .option("--type <token-type>", "requested token type (default urn:vendor:params:oauth:token-type:pat)")
  .option("--expires-in <seconds>", "lifetime in seconds (default: no expiry)", wholeNumber)
  .option("--client-id <id>", "client id (application access tokens)")
  .action(async (flags) => {
    await withStore(flags, async (store) => {
      const { org, admin } = await firstOrg(store, flags);
      const issued = await issueToken(store, actorOf(org, admin), {
        scopes: String(flags.scopes)
          .split(",")
          .map((s: string) => s.trim())
          .filter(Boolean),
        ...(flags.type ? { type: flags.type } : {}),
        ...(flags.expiresIn !== undefined ? { expiresIn: flags.expiresIn } : {}),
        ...(flags.clientId ? { clientId: flags.clientId } : {}),
      });
      process.stdout.write(`${issued.secret}\n`);
      process.stderr.write(
        `issued ${issued.token.display_id} (${issued.token.id}) with scopes ${issued.token.scopes.join(" ")}\n`,
      );
    });
  });

withStoreFlags(
  token.command("revoke").description("revoke a token by its id or display id").argument("<id>"),
).action(async (id: string, flags) => {
  await withStore(flags, async (store) => {
    const { org, admin } = await firstOrg(store, flags);
    const revoked = await store.revokeToken(actorOf(org, admin), id);
    process.stderr.write(`revoked ${revoked.display_id}\n`);
  });
});

const org = program.command("org").description("organizations: the tenants of this server");

withStoreFlags(
  org
    .command("create")
    .description("create an organization with its admin user; prints its admin token once"),
)
  .requiredOption("--name <name>", "the organization's name")
  .option("--token-file <file>", "also write the admin token to this file (mode 0600)")
  .action(async (flags) => {
    await withStore(flags, async (store) => {
      await firstOrg(store, flags);
      if (flags.tokenFile) await requireTokenFileFree(store, flags.tokenFile);
      const created = await createOrganization(store, String(flags.name));
      if (flags.tokenFile) writeTokenFile(flags.tokenFile, created.issued.secret);
      process.stdout.write(`${created.issued.secret}\n`);
      process.stderr.write(
        `created organization ${created.org.id} (${created.org.name}) with admin ${created.admin.id}; the token above is shown once${flags.tokenFile ? ` and saved in ${flags.tokenFile}` : ""}\n`,
      );
    });
  });

withStoreFlags(org.command("list").description("list the organizations: id, status, created, name")).action(
  async (flags) => {
    await withStore(flags, async (store) => {
      for (const each of await store.listOrgs()) {
        process.stdout.write(`${each.id}\t${each.status}\t${each.created_date}\t${each.name}\n`);
      }
    });
  },
);

withStoreFlags(
  org
    .command("deactivate")
    .description("deactivate an organization: its tokens are refused from then on")
    .argument("<id>"),
).action(async (id: string, flags) => {
  await withStore(flags, async (store) => {
    const found = await store.getOrg(id);
    if (!found) throw new Error(`no organization ${id}; see \`workapi-server org list\``);
    await store.setOrgStatus(found.id, "deactivated");
    process.stderr.write(`deactivated ${found.id} (${found.name})\n`);
  });
});

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`workapi-server: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
