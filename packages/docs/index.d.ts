/** Where the reference page lies on disk. */
export declare const docsPath: URL;

/** The console's data and request checks, which the page loads beside itself when a console first opens. */
export declare const consolePath: URL;

/** The page's icon (an SVG, inlined in the page too), which `@workapi/server` serves at `/favicon.ico`. */
export declare const faviconPath: URL;

/** The reference page: one self-contained HTML document with its scripts inlined. */
export declare function readDocsHtml(): string;

/** Where the page shows the reference: the path the reference server serves it at (`/docs`). */
export declare const DOCS_PAGE: string;

/** The anchor of an operation's part of the page: `tag/<first tag>/operation/<operationId>`. */
export declare function operationAnchor(operation: { operationId: string; tags?: string[] }): string;
