// The docs generator: packages/docs/index.html, Redocly's page of the bundled contract, built from the reader's
// copy scripts/docs-page.mjs makes of it (a scope line per operation, the code samples' variables, the
// changelog), made to work offline, with a favicon (packages/docs/favicon.svg) and the "Try it" panel
// (scripts/docs-try-it.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docsCodeSamples, docsDocument, offlineHtml } from "./docs-page.mjs";
import { SERVER_ORIGIN_LINE, tryItPanel } from "./docs-try-it.mjs";
import { GENERATED_NOTICE } from "./generated-notice.mjs";
import { runRedocly } from "./redocly.mjs";

const DOCS_FILE = "packages/docs/index.html";
const FAVICON_FILE = "packages/docs/favicon.svg";

/**
 * `text` with `insert` put before `marker` (which stays): its first occurrence, its last, or its only one
 * (`which`); an error naming the marker when it is not found so.
 */
function before(text, marker, insert, which) {
  const at = which === "last" ? text.lastIndexOf(marker) : text.indexOf(marker);
  if (at < 0 || (which === "only" && text.indexOf(marker, at + 1) >= 0))
    throw new Error(
      `the built docs no longer hold ${marker} (${which}): check where the page's additions go`,
    );
  return `${text.slice(0, at)}${insert}${text.slice(at)}`;
}

/** Redocly's page with the favicon, the panel and the served origin added. */
function withAdditions(root, doc, html) {
  const favicon = readFileSync(join(root, FAVICON_FILE), "utf8").trim();
  const icon = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(favicon)}">\n`;
  let page = before(html, "</head>", icon, "first");
  page = before(page, "hydrate(__redoc_definition,", `${SERVER_ORIGIN_LINE}\n      `, "only");
  return before(page, "</body>", `${tryItPanel(root, doc)}\n`, "last");
}

export const docsGenerator = {
  name: "docs",
  inputs: ["bundle"],
  outputs: [DOCS_FILE],
  generate({ root, work, inputs }) {
    const { doc, sampleVariables } = inputs.bundle;
    const docsIn = join(work, "openapi.json");
    // The page is built from a reader's copy: one scope line per operation, the samples' variables, a changelog.
    writeFileSync(docsIn, JSON.stringify(docsDocument(doc, { root, variables: sampleVariables }), null, 2));
    const html = join(work, "index.html");
    // The page's options go in a JSON file (--openapi takes one): the sample panel's languages are a list,
    // which dot notation on the command line cannot give.
    const docsOptions = join(work, "redoc-options.json");
    writeFileSync(docsOptions, JSON.stringify({ disableTelemetry: true, codeSamples: docsCodeSamples }));
    runRedocly(root, [
      "build-docs",
      docsIn,
      "--openapi",
      docsOptions,
      "--inlineBundle",
      "--title",
      "workapi reference",
      "-o",
      html,
    ]);
    const built = offlineHtml(readFileSync(html, "utf8"));
    const page = `<!-- ${GENERATED_NOTICE} -->\n${withAdditions(root, doc, built)}`;
    return { files: { [DOCS_FILE]: page } };
  },
};
