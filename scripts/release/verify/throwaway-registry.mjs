// The throwaway Verdaccio registry (scripts/release/registry.mjs) on a loopback port, storage in the run's
// temporary folder: it serves @workapi/* from what is published to it and proxies every other package from the
// machine's registry.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startDaemon, waitFor } from "./processes.mjs";
import { log, root, work } from "./state.mjs";

export async function startRegistry() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const uplink = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  const dir = join(work, "verdaccio");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "config.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: -1",
      "uplinks:",
      "  upstream:",
      `    url: ${uplink}`,
      "    timeout: 60s",
      "packages:",
      // Ours come only from what is published here; never from the upstream registry.
      '  "@workapi/*":',
      "    access: $all",
      "    publish: $anonymous",
      '  "**":',
      "    access: $all",
      "    proxy: upstream",
      "server:",
      "  keepAliveTimeout: 60",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const daemon = startDaemon(
    process.execPath,
    [join(root, "scripts/release/registry.mjs"), join(dir, "config.yaml"), "127.0.0.1", String(port)],
    { cwd: dir },
  );
  await waitFor("Verdaccio", async () => (await fetch(`${url}-/ping`)).ok, 60_000, daemon.output);
  log(`Verdaccio listening on ${url} (proxying ${uplink})`);
  return url;
}

/** The environment that points npm and pnpm at the throwaway registry, with a token it accepts. */
export function registryEnv(url) {
  const npmrc = join(work, "npmrc");
  const host = url.replace(/^http:/, "");
  writeFileSync(npmrc, `registry=${url}\n${host}:_authToken=release-verify\n`);
  const env = { ...process.env, NPM_CONFIG_USERCONFIG: npmrc, npm_config_registry: url };
  for (const key of Object.keys(env)) {
    if (/^(NPM_TOKEN|NODE_AUTH_TOKEN|npm_config__auth|NPM_CONFIG__AUTH)/i.test(key)) delete env[key];
    if (/^npm_config_provenance$/i.test(key)) delete env[key];
  }
  return env;
}
