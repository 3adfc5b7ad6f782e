/** Where the reference page lies on disk. */
export declare const docsPath: URL;

/** The request checks the page's console loads beside it (validators.js), when a console is first opened. */
export declare const validatorsPath: URL;

/** The page's icon (an SVG, inlined in the page too), which `@workapi/server` serves at `/favicon.ico`. */
export declare const faviconPath: URL;

/** The reference page: one self-contained HTML document with its scripts inlined. */
export declare function readDocsHtml(): string;

/** Where the page shows the reference: the path the reference server serves it at (`/docs`). */
export declare const DOCS_PAGE: string;

/** The anchor of an operation's part of the page: `tag/<first tag>/operation/<operationId>`. */
export declare function operationAnchor(operation: { operationId: string; tags?: string[] }): string;
