// Redoc's script for the docs page: Redoc 2 (the `redoc` package's browser build, which leaves React, MobX,
// styled-components and its other dependencies to the page) bundled with those dependencies by esbuild, at
// production settings and minified, into one script that defines `Redoc.init(definition, options, element)`,
// which renders Redoc's standalone component into the element as Redoc's own standalone bundle does. The docs
// generator (scripts/generate-docs.mjs) inlines it.
//
// Modules the page never runs are replaced, each by what the page needs of it, which keeps the script a fifth
// lighter than Redoc's own standalone bundle (0.90 MB against 1.10 MB):
// - Redocly's openapi-core bundler and its config: Redoc runs them to load a definition and its external
//   references, but the page hands it the contract that Redocly CLI has already bundled (one document, local
//   references only), so the definition is taken as it is;
// - YAML, which only the conversion of a Swagger 2 definition (swagger2openapi, inside Redoc's build) uses: the
//   page's definition is OpenAPI 3.1;
// - the Prism grammars of languages the samples are not in (the page's samples are curl, TypeScript and JSON).
//
// Redoc's attribution logo is the one thing the script would load from elsewhere (cdn.redoc.ly); no option
// turns it off, so the script gets an inline image in its place and the page keeps working offline.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** The Prism grammars Redoc loads that the page's samples use (bash for curl; clike and markup are bases). */
const PRISM_KEPT = new Set(["bash", "clike", "markup", "markup-templating"]);

/** What stands for each replaced module. */
const REPLACED = {
  "@redocly/openapi-core/lib/bundle": [
    "// The definition Redoc is given is bundled already: it is the document itself.",
    "export const bundle = async ({ doc }) => ({ bundle: { parsed: doc.parsed } });",
  ].join("\n"),
  "@redocly/openapi-core/lib/config/config": [
    "// Redoc sets the fetch of external references on it; the page's definition has none.",
    "export class Config { resolve = { http: {} }; }",
  ].join("\n"),
};

const NOT_SWAGGER_2 = [
  "// Only the conversion of a Swagger 2 definition reads or writes YAML; the page's definition is OpenAPI 3.1.",
  'const unused = () => { throw new Error("the docs page converts no Swagger 2 definition"); };',
  "export const parse = unused;",
  "export const stringify = unused;",
  "export default { parse, stringify };",
].join("\n");

const ATTRIBUTION_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="16" viewBox="0 0 64 16">' +
    '<text x="0" y="12" font-family="sans-serif" font-size="12" fill="#888">Redocly</text></svg>',
)}`;

/** The script with nothing left that loads from another origin. */
function offline(script) {
  if (!script.includes(ATTRIBUTION_LOGO)) {
    throw new Error(`Redoc's script no longer references ${ATTRIBUTION_LOGO}: check what it loads`);
  }
  const page = script.replaceAll(ATTRIBUTION_LOGO, INLINE_LOGO);
  const other = page.match(/https:\/\/cdn\.[\w./-]+/);
  if (other) throw new Error(`Redoc's script loads ${other[0]}: the page must work offline`);
  return page;
}

const replaced = {
  name: "docs-page-replaced-modules",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@redocly\/openapi-core\// }, ({ path }) => {
      if (!(path in REPLACED)) throw new Error(`Redoc now loads ${path}: check what the page needs of it`);
      return { path, namespace: "replaced" };
    });
    esbuild.onResolve({ filter: /^yaml$/ }, ({ path }) => ({ path, namespace: "not-swagger-2" }));
    esbuild.onLoad({ filter: /.*/, namespace: "not-swagger-2" }, () => ({
      contents: NOT_SWAGGER_2,
      loader: "js",
    }));
    esbuild.onResolve({ filter: /^prismjs\/components\/prism-[\w-]+\.js$/ }, ({ path }) => {
      const language = path.match(/prism-([\w-]+)\.js$/)[1];
      return PRISM_KEPT.has(language) ? undefined : { path, namespace: "unused-grammar" };
    });
    esbuild.onLoad({ filter: /.*/, namespace: "replaced" }, ({ path }) => ({
      contents: REPLACED[path],
      loader: "js",
    }));
    esbuild.onLoad({ filter: /.*/, namespace: "unused-grammar" }, () => ({ contents: "", loader: "js" }));
  },
};

const ENTRY = `
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { RedocStandalone } from "redoc";
window.Redoc = {
  init: (spec, options, element) => createRoot(element).render(createElement(RedocStandalone, { spec, options })),
};
`;

/** Redoc's script for the page, built from the installed packages (the same input gives the same script). */
export async function redocScript(root) {
  const { outputFiles } = await build({
    stdin: {
      contents: ENTRY,
      // From Redoc's folder: its peers (React, MobX, styled-components), which pnpm installs beside it.
      resolveDir: realpathSync(join(root, "node_modules", "redoc")),
      loader: "js",
    },
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    mainFields: ["browser", "module", "main"],
    define: { "process.env.NODE_ENV": '"production"', global: "globalThis" },
    legalComments: "eof",
    plugins: [replaced],
    write: false,
    logLevel: "silent",
  });
  return offline(outputFiles[0].text);
}
