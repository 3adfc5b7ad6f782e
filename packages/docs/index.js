import { readFileSync } from "node:fs";

/** Where the reference page lies on disk. */
export const docsPath = new URL("./index.html", import.meta.url);

/** The page's icon (an SVG, inlined in the page too), which `@workapi/server` serves at `/favicon.ico`. */
export const faviconPath = new URL("./favicon.svg", import.meta.url);

/** The reference page: one self-contained HTML document with its scripts inlined. */
export function readDocsHtml() {
  return readFileSync(docsPath, "utf8");
}
