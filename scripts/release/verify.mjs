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
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), "workapi-release-verify-"));
const running = new Set();
const closers = [];
const summary = [];

function log(line) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stdout.write(`[release:verify ${seconds}s] ${line}\n`);
}

function fail(message) {
  throw new Error(message);
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs a command to its end; answers its exit code, its stdout and all its output (printed when `echo`). */
function run(command, args, { cwd = root, env = process.env, echo = false, timeoutMs = 300_000 } = {}) {
  return new Promise((done, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    child.on("exit", () => running.delete(child));
    let output = "";
    let stdout = "";
    const take = (chunk) => {
      output += chunk;
      if (echo) process.stdout.write(chunk);
    };
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      take(chunk);
    });
    child.stderr.on("data", take);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} took longer than ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, output });
    });
  });
}

/** Runs a command that must succeed; answers its stdout. */
async function mustRun(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) fail(`${command} ${args.join(" ")} failed (exit ${result.code}):\n${result.output}`);
  return result.stdout;
}

/** Starts a long-running process in its own group (so that stopping it stops its children) and keeps it. */
function startDaemon(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  return { child, output: () => output };
}

function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM"); // a daemon leads its own process group
    } catch {
      child.kill("SIGTERM"); // a command run to its end does not
    }
  }
  running.clear();
}

async function waitFor(what, probe, timeoutMs, output) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  fail(`${what} did not come up within ${timeoutMs / 1000} s${output ? `:\n${output()}` : ""}`);
}

async function startRegistry() {
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
function registryEnv(url) {
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

function publishedPackages() {
  return readdirSync(join(root, "packages"))
    .map((name) => join(root, "packages", name, "package.json"))
    .map((file) => {
      try {
        return JSON.parse(readFileSync(file, "utf8"));
      } catch {
        return undefined;
      }
    })
    .filter((pkg) => pkg && pkg.private !== true);
}

async function publish(url, env) {
  // Refuse to go on unless both package managers really resolve to the throwaway registry.
  for (const tool of ["npm", "pnpm"]) {
    const registry = (await mustRun(tool, ["config", "get", "registry"], { env })).trim().split("\n").pop();
    if (registry !== url) fail(`${tool} would publish to ${registry}, not to the throwaway ${url}; stopping`);
  }
  log("pnpm release (build, tarball checks, changeset publish) against the throwaway registry");
  // --no-git-tag: this is a rehearsal, the checkout gets no release tags.
  await mustRun("pnpm", ["release", "--no-git-tag"], { env, echo: true, timeoutMs: 600_000 });
  const packages = publishedPackages();
  for (const { name, version } of packages) {
    const info = JSON.parse(await mustRun("npm", ["view", `${name}@${version}`, "--json"], { env }));
    if (info.version !== version) fail(`${name}@${version} is not on ${url} after pnpm release`);
    if (!info.dist?.tarball?.startsWith(url)) fail(`${name}'s tarball is not served by ${url}`);
    summary.push(`published ${name}@${version} (${info.dist.tarball})`);
  }
  log(`published ${packages.length} packages`);
}

async function failureModes(env) {
  const again = await run("pnpm", ["release", "--no-git-tag"], { env, timeoutMs: 600_000 });
  if (again.code === 0 || !/already published on .*never published twice/.test(again.output))
    fail(
      `publishing the same versions again should fail, saying so; it answered (exit ${again.code}):\n${again.output}`,
    );
  const refusal = again.output.split("\n").find((line) => line.includes("already published"));
  summary.push(`publishing again refused: ${refusal?.trim()}`);

  const fixture = join(work, "fixture-missing-export");
  mkdirSync(fixture);
  writeFileSync(
    join(fixture, "package.json"),
    JSON.stringify({
      name: "@workapi/release-check-fixture",
      version: "1.0.0",
      license: "MIT",
      type: "module",
      exports: { ".": "./index.js", "./extra": "./extra.js" },
      files: ["index.js"],
    }),
  );
  writeFileSync(join(fixture, "index.js"), "export const one = 1;\n");
  writeFileSync(join(fixture, "extra.js"), "export const two = 2;\n");
  writeFileSync(join(fixture, "README.md"), "# fixture\n");
  writeFileSync(join(fixture, "LICENSE"), "MIT\n");
  const missing = await run("node", [join(root, "scripts/release/check.mjs"), "--no-registry", fixture], {
    env,
  });
  if (
    missing.code === 0 ||
    !missing.output.includes('exports["./extra"] names ./extra.js, which the tarball lacks')
  )
    fail(
      `a tarball missing an exported file should fail the check; it answered (exit ${missing.code}):\n${missing.output}`,
    );
  const line = missing.output.split("\n").find((l) => l.includes("tarball lacks"));
  summary.push(`missing exported file refused: ${line?.trim()}`);
  log("both failure modes fail with their messages");
}

function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** A fresh npm project outside the monorepo whose only registry is the throwaway one. */
async function npmProject(name, url, env, dependencies) {
  const dir = join(work, name);
  writeFiles(dir, {
    "package.json": JSON.stringify({ name, private: true, version: "1.0.0" }, null, 2),
    ".npmrc": `registry=${url}\n`,
  });
  const began = Date.now();
  // better-sqlite3 (the server's) is compiled here: its prebuilt binaries live outside the npm registry, and
  // building from source straight away skips a download attempt that cannot succeed.
  await mustRun("npm", ["install", "--no-audit", "--no-fund", ...dependencies], {
    cwd: dir,
    env: { ...env, npm_config_build_from_source: "true" },
    timeoutMs: 480_000,
  });
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  const foreign = Object.entries(lock.packages)
    .filter(([path, entry]) => path && entry.resolved && !entry.resolved.startsWith(url))
    .map(([path, entry]) => `${path} from ${entry.resolved}`);
  if (foreign.length > 0)
    fail(`${name} installed packages from elsewhere than ${url}:\n${foreign.join("\n")}`);
  const count = Object.keys(lock.packages).length - 1;
  summary.push(
    `installed ${dependencies.join(" ")} in a fresh project: ${count} packages, all from the throwaway registry (${((Date.now() - began) / 1000).toFixed(0)} s)`,
  );
  return dir;
}

async function startInstalledServer(dir, env, pageOrigin) {
  const port = await freePort();
  const daemon = startDaemon(
    "npx",
    ["workapi-server", "serve", "--host", "127.0.0.1", "--port", String(port)],
    {
      cwd: dir,
      env: {
        ...env,
        NODE_ENV: "production",
        WORKAPI_DATA_DIR: join(dir, "data"),
        WORKAPI_CORS_ORIGINS: pageOrigin,
        DATABASE_URL: "",
        REDIS_URL: "",
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    "npx workapi-server serve",
    async () => (await fetch(`${url}/docs`)).ok,
    60_000,
    daemon.output,
  );
  const banner = daemon.output();
  if (!banner.includes(`listening on ${url}`))
    fail(`the start banner should name the address the server listens on (${url}):\n${banner}`);
  const token = readFileSync(join(dir, "data", "admin-token"), "utf8").trim();
  if (!banner.includes(token)) fail(`the first start should print the admin token:\n${banner}`);
  const docs = await (await fetch(`${url}/docs`)).text();
  const installedDocs = readFileSync(join(dir, "node_modules/@workapi/docs/index.html"), "utf8");
  if (docs !== installedDocs) fail("GET /docs is not the page of the installed @workapi/docs");
  summary.push(`npx workapi-server serve: listening on ${url}, /docs is the installed @workapi/docs page`);
  return { url, token };
}

const clientScript = (
  form,
) => `${form === "esm" ? 'import { createClient } from "@workapi/client";' : 'const { createClient } = require("@workapi/client");'}

async function main() {
  const api = createClient({ baseUrl: process.env.WORKAPI_URL, token: process.env.WORKAPI_TOKEN });
  const name = "${form}-" + Date.now();
  const created = await api.tags.create({ name }, { throwOnError: true });
  const { data } = await api.tags.list({ limit: 100 }, { throwOnError: true });
  if (!data.tags.some((tag) => tag.id === created.data.tag.id)) throw new Error("the new tag is not listed");
  console.log("${form}: created and listed " + created.data.tag.id);
}
main().catch((error) => { console.error(error); process.exit(1); });
`;

// TypeScript that must compile against the installed declarations: a wrong call must be an error (if the
// types were lost, the @ts-expect-error below would itself be an error).
const typedScript = (form) => `import { createClient, ApiError } from "@workapi/client";
import type { Tag, SuccessBody } from "@workapi/types";

declare const process: { env: Record<string, string | undefined>; exit(code: number): never };

async function main(): Promise<void> {
  const api = createClient({ baseUrl: process.env.WORKAPI_URL ?? "", token: process.env.WORKAPI_TOKEN ?? "" });
  const created = await api.tags.create({ name: "${form}-" + Date.now() }, { throwOnError: true });
  const tag: Tag = created.data.tag;
  const listed: SuccessBody<"tags-list-post"> = (await api.tags.list({ limit: 100 }, { throwOnError: true })).data;
  // @ts-expect-error: limit is a number
  void api.tags.list({ limit: "ten" });
  if (!listed.tags.some((t) => t.id === tag.id)) throw new Error("the new tag is not listed");
  if (!(ApiError.prototype instanceof Error)) throw new Error("ApiError is no Error");
  console.log("${form}: created and listed " + tag.id);
}
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

function firstCodeBlock(readme, languages) {
  const match = new RegExp("```(" + languages.join("|") + ")\\n([\\s\\S]*?)```").exec(readme);
  if (!match) fail(`no ${languages.join("/")} example in a README`);
  return match[2];
}

async function clientChecks(dir, server, env, pageOrigin) {
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  const serverEnv = { ...env, WORKAPI_URL: server.url, WORKAPI_TOKEN: server.token };
  const lib = ["ES2022", "DOM", "DOM.Iterable"];
  writeFiles(dir, {
    "esm.mjs": clientScript("esm"),
    "cjs.cjs": clientScript("cjs"),
    "node16/package.json": JSON.stringify({ type: "module" }),
    "node16/tsconfig.json": JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "ES2022",
        lib,
        types: [],
        strict: true,
        skipLibCheck: false,
        outDir: "dist",
      },
      include: ["*.mts", "*.cts"],
    }),
    "node16/esm.mts": typedScript("node16-esm"),
    "node16/cjs.cts": typedScript("node16-cts"),
    "bundler/tsconfig.json": JSON.stringify({
      compilerOptions: {
        module: "esnext",
        moduleResolution: "bundler",
        target: "ES2022",
        lib,
        types: [],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ["*.ts"],
    }),
    "bundler/index.ts": typedScript("bundler"),
    "bundler/readme-types.ts": `declare const console: { log(...values: unknown[]): void };\n${firstCodeBlock(readFileSync(join(dir, "node_modules/@workapi/types/README.md"), "utf8"), ["ts"])}`,
    "readme-spec.mjs": firstCodeBlock(
      readFileSync(join(dir, "node_modules/@workapi/spec/README.md"), "utf8"),
      ["js"],
    ),
    "readme-docs.mjs": firstCodeBlock(
      readFileSync(join(dir, "node_modules/@workapi/docs/README.md"), "utf8"),
      ["js"],
    ),
  });
  for (const file of ["esm.mjs", "cjs.cjs"])
    log((await mustRun("node", [file], { cwd: dir, env: serverEnv })).trim());
  await mustRun("node", [tsc, "-p", "node16"], { cwd: dir, env });
  for (const file of ["node16/dist/esm.mjs", "node16/dist/cjs.cjs"])
    log((await mustRun("node", [file], { cwd: dir, env: serverEnv })).trim());
  await mustRun("node", [tsc, "-p", "bundler"], { cwd: dir, env });
  summary.push(
    "client + types: .mjs and .cjs ran against the server; node16 .mts and .cts compiled and ran; bundler type-checked",
  );
  for (const file of ["readme-spec.mjs", "readme-docs.mjs"]) await mustRun("node", [file], { cwd: dir, env });
  summary.push("first README examples: @workapi/spec and @workapi/docs ran, @workapi/types type-checked");

  await build({
    absWorkingDir: dir,
    stdin: {
      contents: `import { createClient } from "@workapi/client";\nwindow.workapi = { createClient };\n`,
      resolveDir: dir,
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    outfile: join(dir, "bundle.js"),
    logLevel: "error",
  });
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const script = readFileSync(join(dir, "bundle.js"), "utf8");
    // The page comes from an origin of its own, a real loopback server as a site's would be (Chromium lets
    // only pages it loaded from the loopback address space call loopback servers).
    const html = `<!doctype html><script>${script.replace(/<\/script/gi, "<\\/script")}</script>`;
    const site = createHttpServer((_, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(html);
    });
    await new Promise((done) => site.listen(Number(new URL(pageOrigin).port), "127.0.0.1", done));
    closers.push(() => new Promise((done) => site.close(done)));
    await page.goto(`${pageOrigin}/`);
    const result = await page.evaluate(
      async ({ baseUrl, token }) => {
        const api = window.workapi.createClient({ baseUrl, token });
        const created = await api.tags.create({ name: `browser-${Date.now()}` }, { throwOnError: true });
        const { data } = await api.tags.list({ limit: 100 }, { throwOnError: true });
        return { id: created.data.tag.id, listed: data.tags.some((tag) => tag.id === created.data.tag.id) };
      },
      { baseUrl: server.url, token: server.token },
    );
    if (!result.listed || errors.length > 0)
      fail(`the browser page failed: ${JSON.stringify({ result, errors })}`);
    log(`browser: created and listed ${result.id}`);
    summary.push(
      `esbuild bundle of the installed client ran in headless Chromium (${executablePath}) against the server`,
    );
  } finally {
    await browser.close();
    for (const close of closers.splice(0)) await close();
  }
}

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
