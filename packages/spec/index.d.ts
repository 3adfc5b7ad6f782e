/** An OpenAPI 3.1 document; the types package gives precise types for its paths and schemas. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The path of the bundled contract as JSON. */
export declare const specPath: URL;

/** The bundled OpenAPI 3.1 contract, parsed. Every call returns a fresh copy that the caller may change. */
export declare function loadSpec(): OpenApiDocument;
