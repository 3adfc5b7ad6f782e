#!/usr/bin/env node
// `pnpm dev`: the contract author's loop. Watches spec/ (and redocly.yaml) and, on every save:
//   - regenerates the bundle, the types, the client's operations and the docs page in this one process (the
//     generators' modules stay loaded; unchanged generators are skipped by their cache and unchanged files are
//     not written), the page first, printing what it rewrote;
//   - serves the docs page at http://127.0.0.1:<port>/docs, which reloads itself in every open tab, keeping the
//     reader's place (./dev/live.js), and passes every other request to the reference server;
//   - restarts the reference server on the new bundle (SQLite in .workapi-dev/, seeded on its first start);
//   - lints the contract (Redocly) and reviews it against the base (workapi-contract-diff), in a process of
//     its own (./dev/check-process.mjs), and shows both in the terminal and in a panel on the page;
//   - survives a broken save: the YAML error or unresolved $ref is shown (file, line, message), the last good
//     outputs stay served, the next good save recovers.
//
//   pnpm dev [--port 4000] [--api-port 4001] [--base main] [--root <dir>]
// --root runs it on another folder holding spec/ and redocly.yaml (a scratch copy: its outputs are written
// there, never into this repository); --base is a git revision or a contract file.
import { fork } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { clientGenerator } from "@workapi/client/generator";
import { consoleGenerator, docsGenerator } from "@workapi/docs/generator";
import { bundleGenerator } from "@workapi/spec/generator";
import { typesGenerator } from "@workapi/types/generator";
import { apiServer, devToken } from "./dev/api-server.mjs";
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
// The docs page before the types: each reader of the bundle starts, in this order, as soon as it is made.
const generators = [bundleGenerator, docsGenerator, consoleGenerator, typesGenerator, clientGenerator];

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
const page = () =>
  existsSync(join(root, DOCS_FILE))
    ? readFileSync(join(root, DOCS_FILE), "utf8")
    : "<html><body></body></html>";
/** Resolves once console.js is that of the page served: it may be made after the page, and a request waits. */
let consoleMade = Promise.resolve();
const consoleScript = () =>
  consoleMade.then(() =>
    existsSync(join(root, CONSOLE_FILE)) ? readFileSync(join(root, CONSOLE_FILE), "utf8") : "",
  );
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
// The lint and the review, in a process of their own at a lower priority (./dev/check-process.mjs): the page's
// regeneration and reload come first.
const checker = fork(join(repo, "scripts/dev/check-process.mjs"), {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
try {
  setPriority(checker.pid, 10);
} catch {
  // Not allowed here: it runs at the same priority, which only costs time.
}
const checkAnswers = new Map();
let nextCheck = 0;
checker.on("message", ({ id, ...answer }) => {
  checkAnswers.get(id)?.(answer);
  checkAnswers.delete(id);
});
const counts = (items) =>
  ["error", "warning", "info"]
    .map((level) => `${items.filter((i) => i.level === level).length} ${level}`)
    .join(", ");
const place = (item) => `${item.file ?? ""}${item.line ? `:${item.line}` : ""}`;
let baseReported = false;

/** Lints and reviews the contract, then tells the terminal and the pages. */
async function check() {
  const id = nextCheck++;
  const answer = await new Promise((resolve) => {
    checkAnswers.set(id, resolve);
    checker.send({ id, root, base: args.base });
  });
  state.lint = Array.isArray(answer.lint) ? answer.lint : [{ level: "error", message: answer.lint.error }];
  state.review = Array.isArray(answer.review) ? answer.review : [];
  if (!Array.isArray(answer.review) && !baseReported) {
    baseReported = true;
    log(`the review against ${args.base} failed: ${answer.review.error}`);
  }
  log(`lint: ${counts(state.lint)}; review against ${args.base}: ${counts(state.review)}`);
  // Every lint problem (errors and warnings: `pnpm lint:spec` allows neither), and the review's errors.
  for (const item of state.lint.filter((i) => i.level !== "info"))
    log(`  lint ${item.level} ${item.rule ?? ""} ${place(item)} ${item.message}`);
  for (const item of state.review.filter((i) => i.level === "error"))
    log(`  review ${item.level} ${item.rule ?? ""} ${place(item)} ${item.message}`);
  pages.changed();
}

let checking = false;
let checkAgain = false;
/** Checks after a pass, one check at a time; passes during one make one more after it. Never awaited. */
async function requestCheck() {
  if (checking) {
    checkAgain = true;
    return;
  }
  checking = true;
  try {
    do {
      checkAgain = false;
      await check();
    } while (checkAgain);
  } finally {
    checking = false;
  }
}

/**
 * Regenerates what the change reaches in one run of the generators, writing each one's files as soon as it has
 * made them; the generators' order starts the docs page first, then console.js (whose request checks, when a
 * save changes them, are compiled on their own thread while the page is rendered and reloads), the types and
 * the client. The reference server restarts on a rewritten bundle, and the lint and the review run (see
 * onChange), only once every output is written and the open pages have painted the new page (1.5 s at most):
 * each is a process of its own that would otherwise take the two cores from the outputs. console.js used to
 * wait for the page to paint (up to 700 ms) and the restart to start then: a save that changed the request
 * checks had console.js written 1.19-1.22 s after it (medians of 5 saves, scripts/dev/measure.mjs); compiled
 * at once, only the changed part of the checks (./request-schemas.mjs), and with the restart after it,
 * 0.88-0.92 s; with the bundle's YAML made from the last save's entries too
 * (@workapi/spec's scripts/yaml-document.mjs), 0.80-0.83 s (10 saves), the page showing the save as soon as
 * before (0.62-0.74 s). Answers { painted }, a promise that holds until the regenerated page has painted,
 * which the lint and the review wait for.
 */
async function regenerate({ cache = true } = {}) {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const work = mkdtempSync(join(tmpdir(), "workapi-dev-"));
  const written = [];
  let pageDone;
  /** Resolves with the open pages' first frame of the new page, once the docs generator is done. */
  const paged = new Promise((resolve) => {
    pageDone = resolve;
  });
  const painted = () => paged.then((frame) => frame.painted);
  let consoleDone;
  consoleMade = new Promise((resolve) => {
    consoleDone = resolve;
  });
  const onProduced = (entry) => {
    const paths = write(root, [entry]);
    written.push(...paths);
    if (paths.length) log(`rewrote ${paths.join(", ")} in ${elapsed()} ms`);
    if (entry.generator.name === consoleGenerator.name) {
      consoleDone();
      // console.js changed while the page did not: the open pages reload for it all the same.
      if (paths.length && !written.includes(DOCS_FILE)) {
        state.version += 1;
        pages.changed();
      }
    }
    if (entry.generator.name === docsGenerator.name) {
      state.broken = undefined;
      if (paths.length) {
        state.version += 1;
        pages.changed();
        // The server's restart and the lint wait for the page's first frame up to 1.5 s.
        pageDone({ painted: pages.reached("painted", state.version, 1500) });
      } else pageDone({ painted: Promise.resolve() });
    }
  };
  try {
    await produce(root, work, { generators, cache, onProduced });
  } catch (error) {
    // The docs generators may never have answered: nothing waits for the page or console.js.
    pageDone({ painted: Promise.resolve() });
    consoleDone();
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  state.broken = undefined;
  if (!written.length) log(`nothing changed (${elapsed()} ms)`);
  // The reference server restarts on a rewritten bundle once every output is written and the page has painted.
  if (written.some((path) => path.startsWith("packages/spec/openapi"))) painted().then(restartServer);
  // In an object: an async function answering a promise would wait for it.
  return { painted: painted() };
}

/**
 * Regenerates, telling the terminal and the pages what broke when the contract does not build; answers
 * { painted }, a promise that holds until the regenerated page has painted.
 */
async function regenerateOrReport(options) {
  try {
    return await regenerate(options);
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
      const { painted = Promise.resolve() } = (await regenerateOrReport()) ?? {};
      pages.changed();
      // The page first: the lint and the review start once it has painted, and the next save does not wait
      // for them.
      painted.then(requestCheck);
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
// redocly.yaml configures the bundle and the lint: a save of it is a pass too. Its folder is watched (an
// editor's save replaces the file), for that one name.
watch(root, (_event, name) => {
  if (name !== "redocly.yaml") return;
  clearTimeout(timer);
  timer = setTimeout(onChange, 30);
});
log("watching spec/ and redocly.yaml (Ctrl-C stops)");
const stop = async () => {
  const checked =
    checker.exitCode === null ? new Promise((resolve) => checker.once("exit", resolve)) : undefined;
  checker.kill();
  // Every process `pnpm dev` started is gone before it exits: none is left writing in the dev folder.
  await Promise.all([checked, api.close()]);
  await pages.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
