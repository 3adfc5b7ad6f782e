// The docs generator: packages/docs/index.html, one page rendered here, from the bundled contract, into plain
// HTML (docs-html.mjs: every operation and schema readable before any script runs), with what changed in each
// operation (docs-changes.mjs), the reader's copy of the descriptions (docs-page.mjs: the scope line, the code
// samples' variables, the changelog), a favicon (packages/docs/favicon.svg), and the page's one script and style
// (src/console/): the console, the search over the page's HTML, the sandbox button, the copy buttons, the theme
// switch. Beside it, packages/docs/console.js (a generator of its own): the console's data and request checks,
// which the page loads when a console is first opened (src/console/data.js says why). It loads nothing from any
// other host.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "@workapi/spec";
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";
import { compileChecks, startChecksThread } from "./checks-client.mjs";
import { operationHistory } from "./docs-changes.mjs";
import { consoleData } from "./docs-console-data.mjs";
import { pageBody } from "./docs-html.mjs";
import { docsDocument } from "./docs-page.mjs";
import { escapeHtml } from "./docs-schema-html.mjs";
import { checkedSchemas } from "./request-schemas.mjs";

const DOCS_FILE = "packages/docs/index.html";
const CONSOLE_FILE = "packages/docs/console.js";
const FAVICON_FILE = "packages/docs/favicon.svg";
const CONSOLE_DIR = join("packages", "docs", "src", "console");

/** The page for the bundled contract `doc`, with the code samples' `variables`. */
export async function renderDocs(root, doc, variables) {
  const definition = docsDocument(doc, { root, variables });
  // The page's parts read an operation as { path, method, raw }, raw being the operation object.
  const operations = operationsOf(doc).map(({ path, method, operation }) => ({
    path,
    method,
    raw: operation,
  }));
  const copies = operationsOf(definition).map(({ operation }) => operation);
  const history = operationHistory(root, doc, operations);
  const favicon = readFileSync(join(root, FAVICON_FILE), "utf8").trim();
  const css = readFileSync(join(root, CONSOLE_DIR, "page.css"), "utf8").trim();
  const script = await cachedPageScript();
  const { title, version } = doc.info;
  return [
    `<!-- ${GENERATED_NOTICE} -->`,
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${title} (${version})`)}</title>`,
    `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(favicon)}">`,
    `<style>${css}</style>`,
    // The theme the reader chose (src/console/theme.js), set before the page paints, so it never flashes.
    '<script>try{const t=localStorage.getItem("workapi.docs.theme");if(t)document.documentElement.dataset.theme=t}catch{}</script>',
    "</head>",
    "<body>",
    '<header id="top">',
    `<h1><a class="title" href="#section/Introduction">${escapeHtml(title)}</a></h1> <span class="version">${escapeHtml(version)}</span>`,
    '<div class="search"><input id="search" type="search" role="combobox" placeholder="Search operations, fields, errors (press /)" autocomplete="off" aria-label="Search" aria-controls="search-results" aria-expanded="false"><ul id="search-results" role="listbox" aria-label="Search results" hidden></ul></div>',
    // The theme switch: the page's script shows it and keeps the choice (src/console/theme.js).
    '<button type="button" class="theme" aria-pressed="false" hidden>Dark theme</button>',
    "</header>",
    pageBody({ doc, definition, operations, copies, history }),
    `<script>${script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * What this process made last (`pnpm dev` renders the page on every save): the page's script, each part's
 * compiled request checks and console.js's checks script.
 */
const made = { script: undefined, modules: {}, checks: undefined };

/** The page's script: the same for every contract, so made once a process (esbuild makes it in its process). */
function cachedPageScript() {
  // Loaded here: esbuild is most of this module's load, which a cached page never needs.
  if (!made.script) {
    const script = import("./page-script.mjs").then(({ pageScript }) => pageScript());
    made.script = script;
    // A failed build is not kept for the next run.
    script.catch(() => {
      if (made.script === script) made.script = undefined;
    });
  }
  return made.script;
}

/**
 * console.js, which the page loads beside itself when a console first opens: the console's data as JSON
 * (parsed by JSON.parse, quicker than the same object as code) and the request checks. The checks depend on
 * the contract only through its request schemas and components, so a save that changes neither (a summary, a
 * description) reuses the last ones instead of compiling and bundling them again.
 */
export async function renderConsole(doc) {
  // Started first: the checks are compiled on a thread of their own (./checks-client.mjs) while the data is made.
  const checks = consoleChecks(doc);
  const operations = operationsOf(doc).map(({ path, method, operation }) => ({
    path,
    method,
    raw: operation,
  }));
  const data = JSON.stringify(JSON.stringify(consoleData(doc, operations)));
  return [
    `/* ${GENERATED_NOTICE} */`,
    `globalThis.workapiConsole = { data: JSON.parse(${data}) };`,
    await checks,
    "",
  ].join("\n");
}

/**
 * console.js's request checks for `doc`, bundled: the last ones while what they are compiled from (the request
 * schemas and the named schemas they reach, annotations left out: ./request-schemas.mjs) is the same. Each of
 * the two compiled modules (bodies, queries) is made again only when its own part changed: a save that edits a
 * request body's schema compiles the bodies' checks alone (about 60% of the compile), then bundles them anew.
 */
function consoleChecks(doc) {
  const parts = checkedSchemas(doc);
  const modules = Object.entries(parts).map(([part, schemas]) => {
    const key = JSON.stringify(schemas);
    if (made.modules[part]?.key !== key) {
      const module = compileChecks(part, schemas);
      made.modules[part] = { key, module };
      // A failed compile is not kept for the next run.
      module.catch(() => {
        if (made.modules[part]?.module === module) made.modules[part] = undefined;
      });
    }
    return made.modules[part].module;
  });
  const key = JSON.stringify(Object.values(made.modules).map(({ key }) => key));
  if (made.checks?.key !== key) {
    const script = Promise.all(modules).then(async (compiled) => {
      // Loaded here: esbuild, which a cached page never needs.
      const { checksScript } = await import("./page-script.mjs");
      return checksScript(Object.fromEntries(compiled.map(({ name, source }) => [name, source])));
    });
    made.checks = { key, script };
    // A failed bundle is not kept for the next run.
    script.catch(() => {
      if (made.checks?.script === script) made.checks = undefined;
    });
  }
  return made.checks.script;
}

/**
 * What the page and console.js are made from besides the bundle (their code, the console, the favicon, the
 * changelogs, and the @workapi/spec helpers they read the contract with): the cache of
 * scripts/generate-cache.mjs keys on them.
 */
const READS = [
  "packages/docs/src",
  FAVICON_FILE,
  "packages/spec/index.js",
  "packages/spec/validator-options.js",
  "packages/spec/validators.js",
  "packages/spec/scripts",
  "packages/spec/CONTRACT-CHANGES.md",
  ".changeset",
];

/**
 * console.js, a generator of its own: the page does not wait for its request checks (Ajv's compile, about a
 * second, on a thread of its own), so `pnpm dev` reloads the page while they are made (and holds a request
 * for console.js until they are).
 */
export const consoleGenerator = {
  name: "docs console",
  inputs: ["bundle"],
  outputs: [CONSOLE_FILE],
  reads: READS,
  // The bundle is being made anew: the checks' thread starts loading Ajv meanwhile.
  prepare() {
    startChecksThread();
  },
  async generate({ inputs }) {
    return { files: { [CONSOLE_FILE]: await renderConsole(inputs.bundle.doc) } };
  },
};

export const docsGenerator = {
  name: "docs",
  inputs: ["bundle"],
  outputs: [DOCS_FILE],
  reads: READS,
  // The bundle is being made anew: the page will be too, so its script is bundled meanwhile (by esbuild, in
  // its own process).
  prepare() {
    cachedPageScript().catch(() => {}); // its failure is the generator's, when it awaits the script
  },
  async generate({ root, inputs }) {
    const { doc, sampleVariables } = inputs.bundle;
    return { files: { [DOCS_FILE]: await renderDocs(root, doc, sampleVariables) } };
  },
};
