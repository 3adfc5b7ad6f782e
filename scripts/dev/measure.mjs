#!/usr/bin/env node
// How fast `pnpm dev` shows a save on an open docs page, measured rather than asserted (a timing is the
// machine's as much as the loop's, so no test checks one): `pnpm dev` on a scratch copy of spec/, the page open
// in headless Chromium (Debian's, as the tests use), then SAVES saves of each kind, one at a time: an operation's
// summary edited, a schema's property description edited, a request schema edited (its description and a
// maxLength: the console's request checks change) and a new operation (marked x-unreleased) added. Each is timed
// from the file's write to the first frame that shows it, to console.js rewritten, and to the last output
// rewritten (as `pnpm dev` logs them). Prints each kind's medians and ranges.
//
//   node scripts/dev/measure.mjs [--saves 10]
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { chromiumArgs, chromiumPath } from "../chromium.mjs";

const { values: flags } = parseArgs({ options: { saves: { type: "string", default: "10" } } });
const SAVES = Number(flags.saves);
const repo = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "workapi-dev-measure-"));
const spec = (file) => join(scratch, "spec", file);
const read = (file) => readFileSync(spec(file), "utf8");

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

cpSync(join(repo, "spec"), join(scratch, "spec"), { recursive: true });
cpSync(join(repo, "spec"), join(scratch, "base"), { recursive: true });
cpSync(join(repo, "redocly.yaml"), join(scratch, "redocly.yaml"));
const [port, apiPort] = [await freePort(), await freePort()];
const dev = spawn(
  process.execPath,
  [
    join(repo, "scripts/dev.mjs"),
    ...["--root", scratch, "--port", String(port), "--api-port", String(apiPort)],
    ...["--base", join(scratch, "base/openapi.yaml")],
  ],
  { stdio: ["ignore", "pipe", "pipe"] },
);
let output = "";
/**
 * The output files `pnpm dev` rewrote (its "rewrote <paths> in <ms>" lines), each when its line came; when
 * each was written is read from the file's mtime: on a busy machine its line reaches this process later.
 */
const rewrites = [];
for (const stream of [dev.stdout, dev.stderr]) {
  stream.on("data", (chunk) => {
    output += chunk;
    for (const [, paths] of String(chunk).matchAll(/rewrote (.*) in \d+ ms/g))
      for (const path of paths.split(", ")) rewrites.push({ at: performance.now(), path });
  });
}
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
try {
  for (const started = Date.now(); !output.includes("watching spec/"); ) {
    if (Date.now() - started > 180_000) throw new Error(`pnpm dev did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
  await page.goto(`http://127.0.0.1:${port}/docs#tag/accounts/operation/accounts-get`, { waitUntil: "load" });

  /** Writes, then waits for the first frame in which `shown` (run in the page) holds; answers the ms between. */
  const timed = async (write, shown, arg) => {
    const saved = performance.now();
    const savedAt = Date.now();
    write();
    await page.waitForFunction(shown, arg, { polling: "raf", timeout: 60_000 });
    const paged = performance.now() - saved;
    // Lets the loop finish what the save started (types, client, a server restart) before the next one.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const since = rewrites
      .filter(({ at }) => at > saved)
      .map(({ path }) => ({ ms: statSync(join(scratch, path)).mtimeMs - savedAt, path }));
    return {
      paged,
      outputs: Math.max(0, ...since.map(({ ms }) => ms)),
      console: since.find(({ path }) => path.endsWith("console.js"))?.ms,
    };
  };
  const summary = read("paths/accounts.get.yaml");
  const tag = read("components/schemas/Tag.yaml");
  const tagRequest = read("components/schemas/TagsCreateRequest.yaml");
  const kinds = {
    "summary edited": (n) =>
      timed(
        () =>
          writeFileSync(
            spec("paths/accounts.get.yaml"),
            summary.replace("Get an account", `Get account ${n}`),
          ),
        (text) =>
          document.querySelector('[id="tag/accounts/operation/accounts-get"] h3')?.textContent.includes(text),
        `Get account ${n}`,
      ),
    "schema description edited": (n) =>
      timed(
        () =>
          writeFileSync(
            spec("components/schemas/Tag.yaml"),
            tag.replace("What the tag means.", `Meaning ${n}.`),
          ),
        (text) => document.body.textContent.includes(text),
        `Meaning ${n}.`,
      ),
    "request schema edited": (n) =>
      timed(
        () =>
          writeFileSync(
            spec("components/schemas/TagsCreateRequest.yaml"),
            tagRequest.replace(
              "    description: What the tag means.",
              `    description: Means ${n}.\n    maxLength: ${100 + n}`,
            ),
          ),
        (text) => document.body.textContent.includes(text),
        `Means ${n}.`,
      ),
    "operation added": (n) =>
      timed(
        () => {
          writeFileSync(
            spec(`paths/accounts.probe${n}.yaml`),
            summary
              .replaceAll("accounts-get", `accounts-probe${n}`)
              .replaceAll("accounts.get", `accounts.probe${n}`)
              .replaceAll("x-companion: true", "x-companion: true\n  x-unreleased: true"),
          );
          writeFileSync(
            spec("openapi.yaml"),
            read("openapi.yaml").replace(
              "  /accounts.get:\n",
              `  /accounts.probe${n}:\n    $ref: paths/accounts.probe${n}.yaml\n  /accounts.get:\n`,
            ),
          );
        },
        (id) => document.querySelector(`main [id$="/operation/${id}"]`) !== null,
        `accounts-probe${n}`,
      ),
  };
  const results = {};
  for (const [kind, save] of Object.entries(kinds)) {
    results[kind] = [];
    for (let n = 1; n <= SAVES; n++) {
      results[kind].push(await save(n));
    }
  }
  console.log(`pnpm dev: ${SAVES} saves of each kind, one at a time, ms from the save (median, range)`);
  const column = (times) => {
    if (times.some((ms) => ms === undefined)) return "-".padEnd(22);
    const sorted = [...times].sort((a, b) => a - b).map(Math.round);
    return `${Math.round(median(times))} (${sorted.at(0)}-${sorted.at(-1)})`.padEnd(22);
  };
  console.log(
    `  ${"save".padEnd(26)} ${"page shows it".padEnd(22)} ${"console.js written".padEnd(22)} every output written`,
  );
  for (const [kind, runs] of Object.entries(results)) {
    const of = (key) => runs.map((run) => run[key]);
    console.log(
      `  ${kind.padEnd(26)} ${column(of("paged"))} ${column(of("console"))} ${column(of("outputs"))}`,
    );
  }
} finally {
  await browser.close();
  dev.kill("SIGTERM");
  await new Promise((resolve) => dev.once("exit", resolve));
  rmSync(scratch, { recursive: true, force: true });
}
