import { readFileSync } from "node:fs";

/** Where the reference page lies on disk. */
export const docsPath = new URL("./index.html", import.meta.url);

/** The console's data and request checks, which the page loads beside itself when a console first opens. */
export const consolePath = new URL("./console.js", import.meta.url);

/** The page's icon (an SVG, inlined in the page too), which `@workapi/server` serves at `/favicon.ico`. */
export const faviconPath = new URL("./favicon.svg", import.meta.url);

/** The reference page: one self-contained HTML document with its scripts inlined. */
export function readDocsHtml() {
  return readFileSync(docsPath, "utf8");
}

/** Where the page shows the reference: the path the reference server serves it at. */
export const DOCS_PAGE = "/docs";

/**
 * The anchor of an operation's part of the page (`tag/tags/operation/tags-list`): its first tag and its
 * operationId, the form links to the page have always had. The page and the server's deprecation links
 * (`Link: </docs#...>; rel="deprecation"`) both take it from here.
 * @param {{ operationId: string, tags?: string[] }} operation
 */
export function operationAnchor(operation) {
  return `tag/${operation.tags?.[0] ?? "other"}/operation/${operation.operationId}`;
}
