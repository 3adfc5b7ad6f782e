#!/usr/bin/env node
// The release path, end to end and from a user's side. Starts a throwaway Verdaccio registry on a loopback
// port (storage in a temporary folder: it serves @workapi/* from what is published to it and proxies every
// other package from the machine's registry), publishes every package with the project's own release command
// (`pnpm release`: build, tarball checks, changeset publish), shows that a second publish of the same
// versions and a tarball missing a file its `exports` names both fail, and then, in fresh projects outside
// the monorepo that install only through that registry:
//   - imports the client and the types from ESM (.mjs), CommonJS (.cjs) and TypeScript (node16 ESM and .cts,
//     compiled and run; bundler, type-checked), each calling a running server;
//   - installs @workapi/server with npm and starts it with `npx workapi-server serve`: its /docs is the page of
//     the installed @workapi/docs, and the installed client talks to it;
//   - bundles the installed client with esbuild into a page that headless Chromium runs against that server;
//   - runs the first example of the spec, docs and types READMEs as written.
// Everything it starts is stopped, and its temporary folder removed, on success, failure or interrupt.
// The steps are in scripts/release/verify/: the throwaway registry, publishing and its failure modes, the fresh
// projects, the installed server, the client checks and the browser check; state.mjs holds what they share
// (the temporary folder, the summary, the log) and processes.mjs what they start.
import { rmSync } from "node:fs";
import { clientChecks } from "./verify/client-checks.mjs";
import { startInstalledServer } from "./verify/installed-server.mjs";
import { freePort, stopAll } from "./verify/processes.mjs";
import { npmProject } from "./verify/projects.mjs";
import { failureModes, publish } from "./verify/publish.mjs";
import { log, started, summary, work } from "./verify/state.mjs";
import { registryEnv, startRegistry } from "./verify/throwaway-registry.mjs";

async function main() {
  const url = await startRegistry();
  const env = registryEnv(url);
  await publish(url, env);
  log("installing into fresh projects through the registry (the server compiles better-sqlite3)");
  // The installs and the failure modes do not touch each other: they run side by side.
  const [, clientDir, serverDir] = await Promise.all([
    failureModes(env),
    npmProject("client-project", url, env, [
      "@workapi/client",
      "@workapi/types",
      "@workapi/spec",
      "@workapi/docs",
    ]),
    npmProject("server-project", url, env, ["@workapi/server"]),
  ]);
  const pageOrigin = `http://127.0.0.1:${await freePort()}`;
  const server = await startInstalledServer(serverDir, env, pageOrigin);
  log(`installed server listening on ${server.url}`);
  await clientChecks(clientDir, server, env, pageOrigin);
}

let exitCode = 0;
const interrupt = (signal) => {
  stopAll();
  rmSync(work, { recursive: true, force: true });
  process.stderr.write(`release:verify: stopped by ${signal}\n`);
  process.exit(130);
};
process.once("SIGINT", interrupt);
process.once("SIGTERM", interrupt);
try {
  await main();
  process.stdout.write(`\nrelease:verify passed in ${((Date.now() - started) / 1000).toFixed(0)} s:\n`);
  for (const line of summary) process.stdout.write(`  - ${line}\n`);
} catch (error) {
  exitCode = 1;
  process.stderr.write(
    `\nrelease:verify FAILED after ${((Date.now() - started) / 1000).toFixed(0)} s: ${error.stack ?? error}\n`,
  );
  for (const line of summary) process.stderr.write(`  done before: ${line}\n`);
} finally {
  stopAll();
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
