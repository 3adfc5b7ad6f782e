/** Where the reference page lies on disk. */
export declare const docsPath: URL;

/** The reference page: one self-contained HTML document with its scripts inlined. */
export declare function readDocsHtml(): string;
