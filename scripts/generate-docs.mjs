// The docs generator: packages/docs/index.html, Redocly's page of the bundled contract, built from the reader's
// copy scripts/docs-page.mjs makes of it (a scope line per operation, the code samples' variables, the
// changelog) and made to work offline.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docsCodeSamples, docsDocument, offlineHtml } from "./docs-page.mjs";
import { GENERATED_NOTICE } from "./generated-notice.mjs";
import { runRedocly } from "./redocly.mjs";

const DOCS_FILE = "packages/docs/index.html";

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
    const page = `<!-- ${GENERATED_NOTICE} -->\n${offlineHtml(readFileSync(html, "utf8"))}`;
    return { files: { [DOCS_FILE]: page } };
  },
};
