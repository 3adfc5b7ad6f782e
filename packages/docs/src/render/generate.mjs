// The docs generator: packages/docs/index.html, one self-contained page rendered here, from the bundled
// contract, into plain HTML (docs-html.mjs: every operation and schema readable before any script
// runs), with what changed in each operation (docs-changes.mjs), the reader's copy of the descriptions
// (docs-page.mjs: the scope line, the code samples' variables, the changelog), a favicon
// (packages/docs/favicon.svg), and the page's one script and style (src/console/): the console built
// from the contract, the search over its index, the sandbox button. It loads nothing from any other host.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "@workapi/spec";
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";
import { operationHistory } from "./docs-changes.mjs";
import { consoleData, searchIndex } from "./docs-console-data.mjs";
import { operationAnchor, pageBody } from "./docs-html.mjs";
import { docsDocument } from "./docs-page.mjs";
import { escapeHtml } from "./docs-schema-html.mjs";

const DOCS_FILE = "packages/docs/index.html";
const FAVICON_FILE = "packages/docs/favicon.svg";
const CONSOLE_DIR = join("packages", "docs", "src", "console");

/** JSON safe inside a script element: no `<` can close it. */
export const scriptJson = (value) => JSON.stringify(value).replaceAll("<", "\\u003c");

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
  const data = {
    ...consoleData(doc, operations),
    search: searchIndex(doc, operations, operationAnchor),
    anchors: Object.fromEntries(
      operations.map((operation) => [operation.raw.operationId, operationAnchor(operation)]),
    ),
  };
  const script = await scriptFor(doc);
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
    "</head>",
    "<body>",
    '<header id="top">',
    `<a class="title" href="#section/Introduction">${escapeHtml(title)}</a> <span class="version">${escapeHtml(version)}</span>`,
    '<div class="search"><input id="search" type="search" role="combobox" placeholder="Search operations, fields, errors (press /)" autocomplete="off" aria-label="Search" aria-controls="search-results" aria-expanded="false"><ul id="search-results" role="listbox" hidden></ul></div>',
    "</header>",
    pageBody({ doc, definition, operations, copies, history }),
    `<script type="application/json" id="docs-data">${scriptJson(data)}</script>`,
    `<script>${script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** The last script made in this process and what it was made from (`pnpm dev` renders the page on every save). */
let lastScript;

/**
 * The page's script for `doc`: the console with the contract's request checks. It depends on the contract only
 * through its request schemas and components, so a save that changes neither (a summary, a description)
 * reuses the last one instead of compiling the checks and bundling again.
 */
async function scriptFor(doc) {
  // Loaded here: esbuild and Ajv's compiler are most of this module's load, which a cached page never needs.
  const { requestSchemas, requestValidatorModules } = await import("./request-validators.mjs");
  const key = JSON.stringify([requestSchemas(doc), doc.components]);
  if (lastScript?.key !== key) {
    const { pageScript } = await import("./page-script.mjs");
    lastScript = { key, script: await pageScript(requestValidatorModules(doc)) };
  }
  return lastScript.script;
}

export const docsGenerator = {
  name: "docs",
  inputs: ["bundle"],
  outputs: [DOCS_FILE],
  // The page is the bundle's with these files (its code, the console, the favicon, the changelogs) and the
  // @workapi/spec helpers it reads the contract with: the cache of scripts/generate-cache.mjs keys on them.
  reads: [
    "packages/docs/src",
    FAVICON_FILE,
    "packages/spec/index.js",
    "packages/spec/validator-options.js",
    "packages/spec/scripts",
    "packages/spec/CONTRACT-CHANGES.md",
    ".changeset",
  ],
  async generate({ root, inputs }) {
    const { doc, sampleVariables } = inputs.bundle;
    return { files: { [DOCS_FILE]: await renderDocs(root, doc, sampleVariables) } };
  },
};
