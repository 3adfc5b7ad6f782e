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

/** The HTTP methods an OpenAPI path item may hold operations under, in the order the specification lists them. */
export declare const HTTP_METHODS: readonly [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The node a local JSON pointer (`#/components/schemas/Work`) names in `doc`, or undefined. */
export declare function jsonPointer(doc: unknown, pointer: string): unknown;

/**
 * Follows a chain of local `$ref`s from `node`: the node it ends on and the last `$ref` followed, or `ref`
 * undefined when `node` was no reference. A cycle or a dangling reference throws.
 */
export declare function deref<T = unknown>(doc: unknown, node: unknown): { node: T; ref: string | undefined };

/** The node a chain of `$ref`s ends on (the node itself when it is no reference). */
export declare function resolveRef<T = unknown>(doc: unknown, node: unknown): T;

/** `org-schedule-fragments` -> `orgScheduleFragments`: how an operation name's segment is spelled in code. */
export declare function camelCase(segment: string): string;

/** A record family as the contract states it (`x-record-families` on the schema of its records). */
export interface RecordFamily {
  /** The family's name (`code_change`). */
  name: string;
  /** The prefix of its display ids (`CC` in `CC-5`). */
  prefix: string;
  /** The type word in its ids (`code_change` in `don:core:workapi:devo/1:code_change/5`). */
  idType: string;
  /** The kind of record the server stores it as (`work` for every work type); undefined for dev users and access tokens. */
  kind: string | undefined;
  /** How text names one record of it (`a code change`). */
  displayName: string;
  /** The schema that states it (`CodeChange`). */
  schema: string;
}

/** The record families `doc` states, in document order. */
export declare function recordFamilies(doc: unknown): RecordFamily[];

/** The options every validator of this contract is made with (Ajv): requests, query strings, answers. */
export declare const VALIDATOR_OPTIONS: Readonly<{
  inputs: Readonly<{ strict: false; allErrors: false; useDefaults: true; coerceTypes: false }>;
  queries: Readonly<{ strict: false; allErrors: false; useDefaults: true; coerceTypes: "array" }>;
  outputs: Readonly<{ strict: false; allErrors: true }>;
}>;
