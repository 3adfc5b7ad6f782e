// The fuzz suite's own reading of the contract: every operation with its request schema (the JSON body, or the
// query parameters as one object), request validators, and an answer checker that is independent of the
// server's in-process validation: status declared, content type declared, body valid against that response.
import { deref, HTTP_METHODS, loadSpec } from "@workapi/spec";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { handlers } from "../../src/operations/index.js";
import type { Schema } from "./arbitraries.js";

export const spec = loadSpec();
const SPEC_ID = "fuzz-contract";

function anchored(node: unknown): Schema {
  // Local `#/components/...` references of a schema taken out of the document point into the document added
  // under SPEC_ID.
  return JSON.parse(JSON.stringify(node).replaceAll('"$ref":"#/', `"$ref":"${SPEC_ID}#/`));
}

function ajvWith(coerceTypes: false | "array"): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes });
  addFormats.default(ajv);
  ajv.addSchema({ $id: SPEC_ID, components: spec.components }, SPEC_ID);
  return ajv;
}
const bodies = ajvWith(false);
const queries = ajvWith("array");
const answers = ajvWith(false);

export interface QueryParameter {
  name: string;
  array: boolean;
}

export interface Operation {
  /** `tags.create` */
  name: string;
  method: "GET" | "POST";
  path: string;
  /** The request as one object: the JSON body, or the query parameters by name. */
  input: Schema;
  /** `multipart/form-data` for uploads, else JSON (POST) or the query string (GET). */
  form: boolean;
  query: QueryParameter[];
  /** The scopes any one of which grants the operation; empty when any valid token does. */
  scopes: string[];
  validInput: ValidateFunction;
  responses: Map<number, { contentTypes: string[]; validate?: ValidateFunction }>;
}

/**
 * The operations fuzzed: all but the example-only ones (x-unreleased, no handler yet: src/http/example-only.ts),
 * which answer their fixed examples whatever the input, so fuzzing them tests nothing; `exampleOnly` names them.
 */
export const operations: Operation[] = [];
export const exampleOnly: string[] = [];
const allScopes = new Set<string>();
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of HTTP_METHODS) {
    // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object, read field by field
    const raw = item[method] as any;
    if (!raw) continue;
    if (raw["x-unreleased"] === true && !(raw["x-interface-name"] in handlers)) {
      exampleOnly.push(`${method.toUpperCase()} ${path}`);
      continue;
    }
    const security = (raw.security ?? spec.security ?? []) as Array<Record<string, string[]>>;
    const scopes = security.flatMap((requirement) => requirement.bearer ?? []);
    for (const scope of scopes) allScopes.add(scope);
    // biome-ignore lint/suspicious/noExplicitAny: parameters and responses are read the same way
    const parameters = ((raw.parameters ?? []) as unknown[]).map((p) => deref<any>(spec, p).node);
    const inQuery = parameters.filter((p) => p.in === "query");
    let input: Schema;
    let form = false;
    if (method === "get") {
      input = {
        type: "object",
        additionalProperties: false,
        required: inQuery.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(inQuery.map((p) => [p.name, p.schema])),
      };
    } else {
      const content = deref<Schema>(spec, raw.requestBody).node?.content ?? {};
      form = !content["application/json"] && Boolean(content["multipart/form-data"]);
      input = (content["application/json"] ?? content["multipart/form-data"])?.schema ?? {
        type: "object",
        additionalProperties: false,
      };
    }
    const responses: Operation["responses"] = new Map();
    for (const [status, node] of Object.entries(raw.responses as Record<string, unknown>)) {
      const response = deref<Schema>(spec, node).node;
      const content = (response.content ?? {}) as Record<string, { schema?: unknown }>;
      const json = content["application/json"]?.schema;
      responses.set(Number(status), {
        contentTypes: Object.keys(content),
        ...(json ? { validate: answers.compile(anchored(json)) } : {}),
      });
    }
    operations.push({
      name: raw["x-interface-name"] ?? path.slice(1),
      method: method.toUpperCase() as "GET" | "POST",
      path,
      input,
      form,
      query: inQuery.map((p) => ({
        name: p.name,
        array: deref<Schema>(spec, p.schema).node.type === "array",
      })),
      scopes,
      validInput: (method === "get" ? queries : bodies).compile(anchored(input)),
      responses,
    });
  }
}

/** Every scope the contract names. */
export const contractScopes = [...allScopes].sort();

/** The error types the contract declares per status of its error bodies, from the typed error schemas. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: checked against the contract below
  body: any;
}

/** What is wrong with an answer per the contract, or undefined when it conforms. */
export function nonConformance(operation: Operation, answer: Answer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status} (a server error): ${answer.text.slice(0, 300)}`;
  const declared = operation.responses.get(answer.status);
  if (!declared) return `answered ${answer.status}, which ${operation.name} does not declare`;
  if (declared.contentTypes.length === 0) {
    return answer.text === "" ? undefined : `answered a body where ${answer.status} declares none`;
  }
  const mediaType = answer.contentType.split(";")[0]?.trim() ?? "";
  if (!declared.contentTypes.includes(mediaType))
    return `answered ${answer.status} as '${answer.contentType}', declared: ${declared.contentTypes.join(", ")}`;
  if (declared.validate && !declared.validate(answer.body)) {
    const errors = (declared.validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || "(body)"} ${e.message}`)
      .join("; ");
    return `answered ${answer.status} with a body the contract does not allow (${errors}): ${answer.text.slice(0, 300)}`;
  }
  return undefined;
}

/** A typed 4xx: a declared client-error status whose body is the interface's error model for it. */
export function typedClientError(operation: Operation, answer: Answer): boolean {
  return (
    answer.status >= 400 &&
    answer.status < 500 &&
    nonConformance(operation, answer) === undefined &&
    typeof answer.body?.type === "string"
  );
}
