// The docs page's "Try it" panel: a small form beside Redoc (whose community edition has no console) that sends
// one operation with fetch to a base URL the reader chooses and shows the answer. The docs generator
// (scripts/generate-docs.mjs) inlines it into the page: the panel's script and style from scripts/docs-try-it/,
// and the data they need, taken from the bundled contract here: every operation's method, path and examples.
import { readFileSync } from "node:fs";
import { join } from "node:path";
// Imported by path: the repository root does not depend on the workspace packages.
import { deref } from "../packages/spec/index.js";
import { bodyOf, operationsOf, parameterExample, queryValue } from "./code-samples.mjs";

/** A GET operation's example query string: every query parameter with an example, the cursor left out. */
function exampleQuery(doc, operation) {
  const query = new URLSearchParams();
  for (const ref of operation.parameters ?? []) {
    const parameter = deref(doc, ref).node;
    if (parameter.in !== "query") continue;
    // A cursor comes from an earlier answer; the example one means nothing to another server.
    if (operation["x-pagination"] && parameter.name === "cursor") continue;
    const example = parameterExample(parameter);
    if (example !== undefined) query.append(parameter.name, queryValue(example));
  }
  return query.toString();
}

/**
 * What the panel offers, one entry per operation in document order: `id` (the operationId, the last part of
 * the page's links `#tag/<tag>/operation/<operationId>`), `name`, `method`, `path`, the prefilled `query` (GET) or JSON
 * `body` (POST), and `file` when the body is multipart (the panel does not send files).
 */
export function tryItOperations(doc) {
  return operationsOf(doc).map(({ path, method, operation }) => {
    const entry = { id: operation.operationId, name: operation["x-interface-name"], method, path };
    if (method === "get") return { ...entry, query: exampleQuery(doc, operation) };
    const body = bodyOf(doc, operation);
    if (body?.type === "multipart/form-data") return { ...entry, file: true };
    return { ...entry, body: body?.example === undefined ? "" : JSON.stringify(body.example, null, 2) };
  });
}

/** JSON safe inside a script element: no `<` can close it. */
export const scriptJson = (value) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * The line that gives Redoc the server the page came from (`window.workapiServerOrigin`, set by the panel's
 * script where the reference server serves the page), to go before Redoc renders the definition.
 */
export const SERVER_ORIGIN_LINE =
  "if (window.workapiServerOrigin) for (const server of __redoc_definition.servers ?? []) server.url = window.workapiServerOrigin;";

/** The panel's style, data and script, to go before the script that renders the page. */
export function tryItPanel(root, doc) {
  const dir = join(root, "scripts", "docs-try-it");
  const css = readFileSync(join(dir, "panel.css"), "utf8").trim();
  const js = readFileSync(join(dir, "panel.js"), "utf8").trim();
  const data = { operations: tryItOperations(doc) };
  return [
    `<style>${css}</style>`,
    `<script type="application/json" id="try-it-data">${scriptJson(data)}</script>`,
    // Strict, so that the functions declared in the script's block stay in it.
    `<script>"use strict";\n${js}</script>`,
  ].join("\n");
}
