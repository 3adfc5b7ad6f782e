/** Where the reference page lies on disk. */
export declare const docsPath: URL;

/** The page's icon (an SVG, inlined in the page too), which `@workapi/server` serves at `/favicon.ico`. */
export declare const faviconPath: URL;

/** The reference page: one self-contained HTML document with its scripts inlined. */
export declare function readDocsHtml(): string;
