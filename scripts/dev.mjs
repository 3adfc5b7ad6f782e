#!/usr/bin/env node
// `pnpm dev`: the contract author's loop. Watches spec/ and, on every save:
//   - regenerates the bundle, the types, the client's operations and the docs page in this one process (the
//     generators' modules stay loaded; unchanged generators are skipped by their cache and unchanged files are
//     not written), printing what it rewrote;
//   - serves the docs page at http://127.0.0.1:<port>/docs, which reloads itself in every open tab, keeping the
//     reader's place (./dev/live.js), and passes every other request to the reference server;
//   - restarts the reference server on the new bundle (SQLite in .workapi-dev/, seeded on its first start);
//   - lints the contract (Redocly) and reviews it against the base (workapi-contract-diff), in the terminal
//     and in a panel on the page;
//   - survives a broken save: the YAML error or unresolved $ref is shown (file, line, message), the last good
//     outputs stay served, the next good save recovers.
//
//   pnpm dev [--port 4000] [--api-port 4001] [--base main] [--root <dir>]
// --root runs it on another folder holding spec/ and redocly.yaml (a scratch copy: its outputs are written
// there, never into this repository); --base is a git revision or a contract file.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { clientGenerator } from "@workapi/client/generator";
import { docsGenerator } from "@workapi/docs/generator";
import { bundleGenerator } from "@workapi/spec/generator";
import { typesGenerator } from "@workapi/types/generator";
import { apiServer, devToken } from "./dev/api-server.mjs";
import { baseContract, lintProblems, review } from "./dev/checks.mjs";
import { pageServer } from "./dev/page-server.mjs";
import { produce, write } from "./generate-run.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "4000" },
    "api-port": { type: "string", default: "4001" },
    base: { type: "string", default: "main" },
    root: { type: "string", default: repo },
  },
});
const root = resolve(args.root);
const devDir = join(root, ".workapi-dev");
const DOCS_FILE = "packages/docs/index.html";
const CONSOLE_FILE = "packages/docs/console.js";
const SPEC_DIR = join(root, "packages", "spec");
const pageGenerators = [bundleGenerator, docsGenerator];
const codeGenerators = [bundleGenerator, typesGenerator, clientGenerator];

// A scratch root gets the few files the generators read beside spec/ from this repository.
if (root !== repo) {
  for (const file of [
    "packages/spec/package.json",
    "packages/docs/favicon.svg",
    "packages/docs/src/console/page.css",
  ])
    if (!existsSync(join(root, file))) cpSync(join(repo, file), join(root, file));
}

const log = (line) => console.log(`[dev] ${line}`);
const state = { version: 0, base: args.base, broken: undefined, lint: [], review: [], server: "starting" };
let doc;
const page = () =>
  existsSync(join(root, DOCS_FILE))
    ? readFileSync(join(root, DOCS_FILE), "utf8")
    : "<html><body></body></html>";
const consoleScript = () =>
  existsSync(join(root, CONSOLE_FILE)) ? readFileSync(join(root, CONSOLE_FILE), "utf8") : "";
const token = devToken(devDir);
const api = apiServer({ repo, devDir, specDir: SPEC_DIR, port: Number(args["api-port"]), token, log });
/** The reference server's restarts under way (./dev/api-server.mjs), one after the other; none: undefined. */
let restarting;
const pages = await pageServer({
  port: Number(args.port),
  page,
  consoleScript,
  state: () => state,
  api: () => api.url,
  // A call made while the server restarts waits for the new one rather than failing.
  ready: () => restarting?.catch(() => {}) ?? Promise.resolve(),
  token,
});
const base = baseContract(root, args.base);
base.catch((error) => log(`the base ${args.base} cannot be read: ${error.message}`));

/** Lints and reviews the contract, then tells the terminal and the pages. */
async function check() {
  const [lint, reviewed] = await Promise.allSettled([lintProblems(root, doc), review(root, base)]);
  state.lint = lint.status === "fulfilled" ? lint.value : [{ level: "error", message: String(lint.reason) }];
  state.review = reviewed.status === "fulfilled" ? reviewed.value.findings : [];
  const counts = (items) =>
    ["error", "warning", "info"]
      .map((level) => `${items.filter((i) => i.level === level).length} ${level}`)
      .join(", ");
  log(`lint: ${counts(state.lint)}; review against ${args.base}: ${counts(state.review)}`);
  for (const item of [...state.lint, ...state.review].filter((i) => i.level === "error"))
    log(
      `  ${item.level} ${item.rule ?? ""} ${item.file ?? ""}${item.line ? `:${item.line}` : ""} ${item.message}`,
    );
  pages.changed();
}

/** Runs `generators` and writes what changed; answers { produced, written }. */
async function run(generators, cache) {
  const work = mkdtempSync(join(tmpdir(), "workapi-dev-"));
  try {
    const produced = await produce(root, work, { generators, cache });
    return { produced, written: write(root, produced) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Regenerates what the change reaches, in two steps: the bundle and the docs page first, so the open pages
 * reload as soon as can be, then the types and the client's operations (the bundle is then read from the
 * cache). A rewritten bundle restarts the reference server at once, while the types are made.
 */
async function regenerate({ cache = true } = {}) {
  const started = performance.now();
  const first = await run(pageGenerators, cache);
  doc = first.produced[0].value?.doc;
  if (first.written.includes(DOCS_FILE) || first.written.includes(CONSOLE_FILE)) state.version += 1;
  const elapsed = () => Math.round(performance.now() - started);
  if (first.written.length) log(`rewrote ${first.written.join(", ")} in ${elapsed()} ms`);
  state.broken = undefined;
  pages.changed();
  if (first.written.some((path) => path.startsWith("packages/spec/openapi"))) restartServer();
  const second = await run(codeGenerators, true);
  if (second.written.length) log(`rewrote ${second.written.join(", ")} in ${elapsed()} ms`);
  if (!first.written.length && !second.written.length) log(`nothing changed (${elapsed()} ms)`);
}

/** Regenerates, telling the terminal and the pages what broke when the contract does not build. */
async function regenerateOrReport(options) {
  try {
    await regenerate(options);
  } catch (error) {
    state.broken = error.problems ?? [{ message: error.message }];
    log("the contract does not build; the last good outputs stay served:");
    for (const p of state.broken) log(`  ${p.file ?? ""}${p.line ? `:${p.line}` : ""} ${p.message}`);
  }
}

let restartAgain = false;
let serverStarted = false;
/** Restarts the reference server, one restart at a time; saves during one make one more after it. */
async function restartServer() {
  // Before the first start (the first regeneration), the start to come reads the new bundle anyway.
  if (!serverStarted) return;
  if (restarting) {
    restartAgain = true;
    return restarting;
  }
  restarting = (async () => {
    do {
      restartAgain = false;
      state.server = "restarting the reference server";
      pages.changed();
      const up = await api.restart();
      state.server = up
        ? `reference server on this contract at ${api.url} (proxied here)`
        : "the reference server did not start";
      log(state.server);
      pages.changed();
    } while (restartAgain);
  })();
  try {
    await restarting;
  } finally {
    restarting = undefined;
  }
}

let running = false;
let again = false;
/** One pass after a save; saves during a pass make one more pass after it. */
async function onChange() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    do {
      again = false;
      await regenerateOrReport();
      pages.changed();
      await check();
    } while (again);
  } finally {
    running = false;
  }
}

// The first run skips the cache, so that what the generators load on first use is loaded before the first save.
await regenerateOrReport({ cache: false });
log(`docs page: ${pages.url}/docs`);

const up = await api.start();
serverStarted = true;
state.server = up ? `reference server at ${api.url} (proxied here)` : "the reference server did not start";
log(state.server);
await check();
let timer;
const watched = new Map();
/**
 * Watches every folder under spec/ (a folder's watch sees a file replaced by a rename, as editors and `sed -i`
 * save, which a recursive watch of the files lost), adding folders made later.
 */
function watchFolders(dir) {
  if (watched.has(dir)) return;
  watched.set(
    dir,
    watch(dir, () => {
      clearTimeout(timer);
      // Editors write a file in several steps; one pass once they are done.
      timer = setTimeout(() => {
        watchFolders(join(root, "spec"));
        onChange();
      }, 30);
    }),
  );
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) watchFolders(join(dir, entry.name));
}
watchFolders(join(root, "spec"));
log("watching spec/ (Ctrl-C stops)");
const stop = async () => {
  await api.stop();
  await pages.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
