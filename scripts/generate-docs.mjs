// The docs generator: packages/docs/index.html, one self-contained page that Redoc renders in the browser from
// the reader's copy of the bundled contract that scripts/docs-page.mjs makes (a scope line per operation, the
// code samples' variables, the changelog), with Redoc's script (scripts/docs-redoc.mjs), a favicon
// (packages/docs/favicon.svg) and the "Try it" panel (scripts/docs-try-it.mjs) inlined: it loads nothing from
// any other host. The contract is linted and bundled by Redocly CLI (scripts/generate-bundle.mjs).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { docsDocument } from "./docs-page.mjs";
import { redocScript } from "./docs-redoc.mjs";
import { SERVER_ORIGIN_LINE, scriptJson, tryItPanel } from "./docs-try-it.mjs";
import { GENERATED_NOTICE } from "./generated-notice.mjs";

const DOCS_FILE = "packages/docs/index.html";
const FAVICON_FILE = "packages/docs/favicon.svg";

/** Text safe inside an HTML element. */
const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: Redoc renders `definition` into #redoc once the panel's script has set the served origin. */
function docsPage(root, doc, definition, redoc) {
  const favicon = readFileSync(join(root, FAVICON_FILE), "utf8").trim();
  const { title, version } = definition.info;
  return [
    `<!-- ${GENERATED_NOTICE} -->`,
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${title} (${version})`)}</title>`,
    `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(favicon)}">`,
    "<style>body { margin: 0; padding: 0; }</style>",
    "</head>",
    "<body>",
    '<div id="redoc"></div>',
    // Redoc's script holds no `</script`: esbuild writes it as `<\/script` inside strings.
    `<script>${redoc}</script>`,
    tryItPanel(root, doc),
    "<script>",
    `const __redoc_definition = ${scriptJson(definition)};`,
    SERVER_ORIGIN_LINE,
    'Redoc.init(__redoc_definition, {}, document.getElementById("redoc"));',
    "</script>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

export const docsGenerator = {
  name: "docs",
  inputs: ["bundle"],
  outputs: [DOCS_FILE],
  async generate({ root, inputs }) {
    const { doc, sampleVariables } = inputs.bundle;
    // The page shows a reader's copy: one scope line per operation, the samples' variables, a changelog.
    const definition = docsDocument(doc, { root, variables: sampleVariables });
    const redoc = await redocScript(root);
    if (/<\/script/i.test(redoc)) throw new Error("Redoc's script would close its script element");
    return { files: { [DOCS_FILE]: docsPage(root, doc, definition, redoc) } };
  },
};
