// Reads the bundled contract once at start-up and turns it into the route table: one entry per operation
// with its scopes, pagination and the JSON Schema 2020-12 validators (Ajv) for its input and, when asked
// for, its answers.
import {
  type ContractOperation,
  type ContractParameter,
  jsonPointer,
  loadSpec,
  type OpenApiDocument,
  operationsOf,
  resolveRef,
} from "@workapi/spec";
import { createAjv } from "@workapi/spec/validators";
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { isStorableText } from "../store/storable-text.js";
import { type ApiError, apiError } from "./errors.js";
import { JsonText } from "./json-text.js";

const SPEC_ID = "https://workapi.invalid/openapi.json";

export interface ScopesByType {
  source: "field" | "id" | "parent";
  field?: string;
  scopes: Record<string, string[]>;
}

interface QueryParameter {
  name: string;
  array: boolean;
  /** Each repeated key is one element; no comma splitting (`explode: true`). */
  explode: boolean;
}

export interface Operation {
  operationId: string;
  method: "GET" | "POST";
  path: string;
  /** `tags.list`: both methods of a read share it, and one handler. */
  name: string;
  safe: boolean;
  /**
   * The contract marks it `x-unreleased`: added since the last release, so the server may not implement it yet
   * (it then answers the operation's documented examples, ../http/example-only.ts).
   */
  unreleased: boolean;
  pagination?: { items: string };
  scopesByType?: ScopesByType;
  parentAccess?: "read";
  /** Scope alternatives, any one of which suffices; empty when the operation needs no scope. */
  scopes: string[];
  successStatus: 200 | 201;
  /** The body is multipart/form-data (checked by the handler) rather than JSON (checked by validateInput). */
  form: boolean;
  errorTypes: string[];
  /** The HTTP statuses the contract declares answers for. */
  statuses: number[];
  query: QueryParameter[];
  /** Validates (and fills defaults into) the input; throws the typed 400. */
  validateInput(input: unknown): void;
  /** Validates an answer against the contract; returns a description of the mismatch, or undefined. */
  checkResponse(status: number, body: unknown): string | undefined;
}

type RawOperation = {
  operationId: string;
  "x-interface-name": string;
  "x-pagination"?: { items: string };
  "x-scopes-by-type"?: ScopesByType;
  "x-parent-access"?: "read";
  "x-error-types"?: string[];
  "x-unreleased"?: boolean;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
};

/** A parameter as the server reads it: what the contract model resolves, with the schema it validates. */
type RawParameter = ContractParameter & {
  explode?: boolean;
  schema: { type?: string; $ref?: string };
};

export interface Contract {
  spec: OpenApiDocument;
  operations: Operation[];
  /** Every scope the contract names. */
  scopes: string[];
}

let loaded: Contract | undefined;

/** The contract of this thread: loaded on first use, then handed to whoever asks (one load per thread). */
export function theContract(): Contract {
  loaded ??= loadContract();
  return loaded;
}

/** The Ajv instances of a contract, each made when a validator is first compiled on it. */
interface Validators {
  inputs: () => Ajv2020;
  queries: () => Ajv2020;
  outputs: () => Ajv2020;
}

/** Reads the bundled contract into its operations. Use theContract(); a test may load a contract of its own. */
export function loadContract(): Contract {
  const spec = loadSpec();
  const passedAnswers = new PassedAnswers();
  // Each Ajv instance (@workapi/spec's createAjv: the contract's options, no meta-schema check) is made when a
  // validator is first compiled on it (production never needs `outputs`).
  const lazyAjv = (kind: keyof Validators) => {
    let ajv: Ajv2020 | undefined;
    return (): Ajv2020 => {
      if (ajv) return ajv;
      ajv = createAjv(kind);
      ajv.addSchema({ $id: SPEC_ID, components: spec.components }, SPEC_ID);
      return ajv;
    };
  };
  const validators: Validators = {
    inputs: lazyAjv("inputs"),
    queries: lazyAjv("queries"),
    outputs: lazyAjv("outputs"),
  };
  const operations: Operation[] = [];
  const scopes = new Set<string>();
  for (const entry of operationsOf(spec)) {
    const operation = operationOf(spec, entry, validators, passedAnswers);
    for (const scope of operation.scopes) scopes.add(scope);
    for (const list of Object.values(operation.scopesByType?.scopes ?? {}))
      for (const scope of list) scopes.add(scope);
    operations.push(operation);
  }
  return { spec, operations, scopes: [...scopes].sort() };
}

function operationOf(
  spec: OpenApiDocument,
  entry: ContractOperation,
  validators: Validators,
  passedAnswers: PassedAnswers,
): Operation {
  const { method, path } = entry;
  const raw = entry.operation as RawOperation;
  const alternatives = (raw.security ?? spec.security ?? []) as Array<Record<string, string[]>>;
  const parameters = entry.parameters as RawParameter[];
  const query = parameters
    .filter((p) => p.in === "query")
    .map((p) => ({
      name: p.name,
      array: resolveRef<{ type?: string }>(spec, p.schema).type === "array",
      explode: p.explode === true,
    }));
  const inputValidator = inputValidatorOf(method, entry.requestBody, parameters, validators);
  const responseSchemas = new Map<number, unknown>();
  for (const [status, response] of Object.entries(entry.responses)) {
    const schema = response.content?.["application/json"]?.schema;
    if (schema) responseSchemas.set(Number(status), schema);
  }
  const checkResponse = responseCheckOf(raw.operationId, responseSchemas, validators, passedAnswers);
  return {
    operationId: raw.operationId,
    method: method.toUpperCase() as "GET" | "POST",
    path,
    name: raw["x-interface-name"],
    safe: entry.safe,
    unreleased: raw["x-unreleased"] === true,
    ...(raw["x-pagination"] ? { pagination: raw["x-pagination"] } : {}),
    ...(raw["x-scopes-by-type"] ? { scopesByType: raw["x-scopes-by-type"] } : {}),
    ...(raw["x-parent-access"] ? { parentAccess: raw["x-parent-access"] } : {}),
    scopes: alternatives.flatMap((requirement) => requirement.bearer ?? []),
    successStatus: responseSchemas.has(201) ? 201 : 200,
    form: entry.requestBody?.content?.["multipart/form-data"] !== undefined,
    errorTypes: raw["x-error-types"] ?? [],
    statuses: Object.keys(raw.responses).map(Number),
    query,
    validateInput(input) {
      requireStorableStrings(input, method === "get");
      const check = inputValidator();
      if (!check(input)) throw inputError(check.errors ?? [], input, method === "get");
    },
    checkResponse,
  };
}

/**
 * The input validator of an operation, compiled on the operation's first request, not at start-up: compiling
 * every operation's schemas took most of a second, and a process seldom serves every operation.
 */
function inputValidatorOf(
  method: string,
  requestBody: ContractOperation["requestBody"],
  parameters: RawParameter[],
  validators: Validators,
): () => ValidateFunction {
  let validate: ValidateFunction | undefined;
  return () => {
    if (validate) return validate;
    if (method === "get") {
      const inQuery = parameters.filter((p) => p.in === "query");
      const schema = {
        type: "object",
        additionalProperties: false,
        required: inQuery.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(inQuery.map((p) => [p.name, p.schema])),
      };
      validate = validators.queries().compile(anchor(schema));
    } else {
      const body = requestBody?.content?.["application/json"]?.schema ?? {
        type: "object",
        additionalProperties: false,
      };
      validate = validators.inputs().compile(anchor(body));
    }
    return validate;
  };
}

/** The check of an operation's answers against the contract: undefined when it fits, else what is wrong. */
function responseCheckOf(
  operationId: string,
  responseSchemas: Map<number, unknown>,
  validators: Validators,
  passedAnswers: PassedAnswers,
): Operation["checkResponse"] {
  const responseValidators = new Map<number, ValidateFunction>();
  const passed = passedAnswers.of(operationId);
  const check = (status: number, body: unknown): string | undefined => {
    if (body instanceof JsonText) {
      // The same text checked against the same schema gets the same verdict: an answer sent before
      // (a record read again while it has not changed) is not parsed and checked again.
      const text = body.text;
      if (passed.has(status, text)) return undefined;
      const mismatch = check(status, JSON.parse(text));
      if (mismatch === undefined) passed.add(status, text);
      return mismatch;
    }
    const schema = responseSchemas.get(status);
    if (schema === undefined) return `status ${status} is not documented for ${operationId}`;
    let validate = responseValidators.get(status);
    if (!validate) {
      validate = validators.outputs().compile(anchor(schema));
      responseValidators.set(status, validate);
    }
    if (validate(body)) return undefined;
    return validators.outputs().errorsText(validate.errors, { dataVar: "response" });
  };
  return check;
}

/**
 * Answers (JSON text) that passed their operation's response check, remembered by text so that the same
 * answer is not parsed and checked again. Bounded by the text they hold: the oldest are forgotten first, and
 * an answer longer than a tenth of the bound (a large export) is always checked.
 */
export class PassedAnswers {
  readonly #checks = new Map<string, Set<string>>();
  #chars = 0;
  constructor(readonly maxChars = 8_000_000) {}

  /** The remembered answers of one operation, by status. */
  of(operationId: string) {
    return {
      has: (status: number, text: string): boolean =>
        this.#checks.get(text)?.has(`${operationId} ${status}`) === true,
      add: (status: number, text: string): void => this.#add(text, `${operationId} ${status}`),
    };
  }

  /** How many characters of answers are remembered. */
  get chars(): number {
    return this.#chars;
  }

  #add(text: string, check: string): void {
    if (text.length > this.maxChars / 10) return;
    const checks = this.#checks.get(text);
    if (checks) {
      checks.add(check);
      return;
    }
    this.#checks.set(text, new Set([check]));
    this.#chars += text.length;
    for (const oldest of this.#checks.keys()) {
      if (this.#chars <= this.maxChars) break;
      this.#checks.delete(oldest);
      this.#chars -= oldest.length;
    }
  }
}

/** How deep an input may nest objects and arrays: deeper inputs are refused before anything walks them. */
export const MAX_INPUT_DEPTH = 64;

/**
 * Throws invalid_field naming the first string (or key) of `input` that holds a NUL character or a lone UTF-16
 * surrogate (see ../store/storable-text.ts), and bad_request for an input nested deeper than MAX_INPUT_DEPTH.
 */
export function requireStorableStrings(input: unknown, inQuery: boolean, path = "", depth = 0): void {
  const fail = (field: string) => {
    const name = field || "body";
    throw apiError(
      "invalid_field",
      `The ${inQuery ? "query parameter" : "field"} '${name}' holds a NUL character or an unpaired UTF-16 surrogate; send well-formed text without NUL.`,
      { field_name: name },
    );
  };
  if (typeof input === "string") {
    if (!isStorableText(input)) fail(path);
    return;
  }
  if (input === null || typeof input !== "object" || ArrayBuffer.isView(input)) return;
  if (depth >= MAX_INPUT_DEPTH) {
    throw apiError(
      "bad_request",
      `The ${inQuery ? "query" : "body"} nests objects or arrays more than ${MAX_INPUT_DEPTH} levels deep (at '${path}'); send a flatter document.`,
    );
  }
  const entries: Array<[string, unknown]> = Array.isArray(input)
    ? input.map((item, index) => [String(index), item])
    : Object.entries(input);
  for (const [key, value] of entries) {
    if (!isStorableText(key)) fail(path);
    requireStorableStrings(value, inQuery, path ? `${path}.${key}` : key, depth + 1);
  }
}

function anchor(schema: unknown): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`));
}

const JSON_KIND: Record<string, string> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "bool",
  object: "object",
  array: "array",
  null: "null",
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "bool";
  return typeof value;
}

/** The value an Ajv instance path (a JSON pointer without `#`, not URI-encoded) names in the input. */
function valueAt(root: unknown, instancePath: string): unknown {
  return jsonPointer(root, `#${instancePath.split("/").map(encodeURIComponent).join("/")}`);
}

// How telling a branch's error is about the branch the caller meant: a missing member says the rest fitted; a
// member only another branch has, a wrong type or a different constant (a discriminator) says it was not meant.
const TELLING: Record<string, number> = { required: 4, additionalProperties: 1, type: 0, const: 0, enum: 0 };

/**
 * The error to report. Ajv reports a failed oneOf/anyOf after the first error of each branch; the first of
 * those belongs to whichever branch comes first, not to the one the input meant (a preset date filter without
 * `days` failed as "preset_type is not accepted", from the range branch). The branch error that got deepest
 * into the input, then the most telling one, names the field; when two tie, the union's own error does.
 */
function meantError(errors: ErrorObject[]): ErrorObject | undefined {
  const unionAt = errors.findIndex((e) => e.keyword === "oneOf" || e.keyword === "anyOf");
  const union = errors[unionAt];
  if (!union || unionAt === 0) return errors[0];
  const score = (e: ErrorObject) => e.instancePath.split("/").length * 10 + (TELLING[e.keyword] ?? 3);
  const candidates = errors.slice(0, unionAt).filter((e) => e.instancePath.startsWith(union.instancePath));
  const best = Math.max(...candidates.map(score));
  const top = candidates.filter((e) => score(e) === best);
  return top.length === 1 ? top[0] : union;
}

/** Turns the first Ajv error into the interface's typed 400, naming the field and what was expected. */
export function inputError(errors: ErrorObject[], input: unknown, inQuery: boolean): ApiError {
  const error = meantError(errors);
  const where = inQuery ? "query parameter" : "field";
  if (!error) return apiError("bad_request", "The request does not fit the contract.");
  const base = error.instancePath.split("/").slice(1).join(".");
  const join = (name: string) => (base ? `${base}.${name}` : name);
  const value = valueAt(input, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const field = join(String(params.missingProperty));
      return apiError("missing_required_field", `The ${where} '${field}' is required.`, {
        field_name: field,
      });
    }
    case "additionalProperties": {
      const field = join(String(params.additionalProperty));
      return apiError(
        "invalid_field",
        `The ${where} '${field}' is not accepted by this operation; leave it out.`,
        {
          field_name: field,
        },
      );
    }
    case "enum":
    case "const": {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [params.allowedValue];
      return apiError(
        "invalid_enum_value",
        `'${String(value)}' is not an allowed value of '${base || where}'; use one of: ${allowed.join(", ")}.`,
        { field_name: base, value: String(value), allowed_values: allowed.map(String) },
      );
    }
    case "type": {
      const expected = String(params.type).split(",")[0] ?? "string";
      return apiError(
        "unexpected_json_type",
        `The ${where} '${base || "body"}' must be ${JSON_KIND[expected] ?? expected}, not ${kindOf(value)}.`,
        { field_name: base || "body", expected: JSON_KIND[expected] ?? "object", actual: kindOf(value) },
      );
    }
    case "oneOf":
    case "anyOf":
    case "if":
    case "not":
      return apiError("invalid_field", `The ${where} '${base || "body"}' ${error.message}.`, {
        field_name: base || "body",
      });
    default:
      return apiError("value_not_permitted", `The ${where} '${base || "body"}' ${error.message}.`, {
        field_name: base || "body",
        reason: error.message ?? error.keyword,
      });
  }
}
