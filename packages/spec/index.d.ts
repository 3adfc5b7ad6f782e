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

/**
 * An `x-sunset` or `x-deprecated-at` value as a Date: a Date, or a string that starts as an RFC 3339 date and
 * parses; undefined for anything else.
 */
export declare function readContractDate(value: unknown): Date | undefined;

/** The calendar day of an `x-sunset` or `x-deprecated-at` value as `YYYY-MM-DD` (a string's as written), or undefined. */
export declare function contractDay(value: unknown): string | undefined;

/** A parameter object of the contract, its `$ref` resolved. */
export interface ContractParameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  deprecated?: boolean;
  schema?: unknown;
  [key: string]: unknown;
}

/** A request body or response object of the contract, its `$ref` resolved. */
export interface ContractBody {
  description?: string;
  required?: boolean;
  content?: Record<
    string,
    { schema?: unknown; example?: unknown; examples?: Record<string, unknown>; [key: string]: unknown }
  >;
  [key: string]: unknown;
}

/** The raw operation object as the contract writes it. */
export interface RawOperation {
  operationId?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

/** One operation of a contract (operationsOf). */
export interface ContractOperation {
  /** The operationId (`works-create`), unique in a contract; `POST /path` for an operation without one. */
  readonly name: string;
  /** The operationId as written, or undefined. */
  readonly operationId: string | undefined;
  /** `x-interface-name` (`works.create`): the GET and POST forms of a read share it. */
  readonly interfaceName: string | undefined;
  readonly method: HttpMethod;
  /** The path template (`/works.get`), or the webhook's name. */
  readonly path: string;
  /** True for a webhook's operation (only listed with `{ webhooks: true }`). */
  readonly webhook: boolean;
  /** The raw operation object, the document's own. */
  readonly operation: RawOperation;
  /** The path item that holds it, its `$ref` followed. */
  readonly pathItem: Record<string, unknown>;
  /** The JSON pointer of the operation object (`#/paths/~1works.get/get`, or where a path item's `$ref` led). */
  readonly pointer: string;
  /** The JSON pointer of the path item. */
  readonly pathItemPointer: string;
  /** The operation's tags (empty when it has none). */
  readonly tags: readonly string[];
  /** The path item's and the operation's parameters, resolved; the operation's win by name and place. Resolved when first read. */
  readonly parameters: ContractParameter[];
  /** The request body, resolved, or undefined. Resolved when first read. */
  readonly requestBody: ContractBody | undefined;
  /** The answers by status, resolved. Resolved when first read. */
  readonly responses: Record<string, ContractBody>;
  /** `x-safe` where the contract sets it; else true for GET and HEAD. */
  readonly safe: boolean;
  readonly deprecated: boolean;
  /** `x-deprecated-at` read as a date, or undefined (absent or no date). */
  readonly deprecatedAt: Date | undefined;
  /** `x-sunset` read as a date, or undefined (absent or no date). */
  readonly sunset: Date | undefined;
  /** `x-stability-level` (draft, alpha, beta, stable) as written, or undefined. */
  readonly stability: string | undefined;
}

/** Every operation of `doc` in document order (paths, then webhooks when asked for). */
export declare function operationsOf(doc: unknown, options?: { webhooks?: boolean }): ContractOperation[];
