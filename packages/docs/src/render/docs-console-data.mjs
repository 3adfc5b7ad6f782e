// What the docs page's script needs, taken from the bundled contract when the page is generated and inlined as
// JSON (generate.mjs): for the console, every operation's parameters, body and answers with their
// schemas (the components' schemas once, lightened: no descriptions or examples, which the page's HTML shows,
// and referred to by name: `{"$ref":"Tag"}`, which the console's lookups read as `#/components/schemas/Tag`).
// The search needs no data of its own: it indexes the page's HTML (src/console/search-index.js).
import { camelCase, deref } from "@workapi/spec";
import { bodyOf, parameterExample } from "@workapi/spec/code-samples";

/** Keywords the console does not use: prose, examples and extensions (the HTML carries the prose). */
const DROPPED = new Set(["description", "examples", "example", "discriminator", "externalDocs", "title"]);

const COMPONENT = "#/components/schemas/";

/** A schema without what the console does not read. */
export function lighten(schema) {
  if (Array.isArray(schema)) return schema.map(lighten);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    // Property names, enum values and defaults are data, not schemas: kept as they are, their values lightened.
    if (key === "properties") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, lighten(sub)]));
    } else if (key === "enum" || key === "const" || key === "default") out[key] = value;
    else if (key === "$ref" && typeof value === "string") out[key] = value.replace(COMPONENT, "");
    else out[key] = lighten(value);
  }
  return out;
}

/** The answers' JSON schemas by status (null for an answer with no JSON body). */
function responsesOf(doc, operation) {
  const out = {};
  for (const [status, ref] of Object.entries(operation.responses ?? {})) {
    const response = deref(doc, ref).node;
    const schema = response.content?.["application/json"]?.schema;
    out[status] = schema ? lighten(schema) : null;
  }
  return out;
}

/** One operation as the console builds its form from it. */
export function consoleOperation(doc, { path, method, raw }) {
  const params = (raw.parameters ?? []).map((ref) => {
    const parameter = deref(doc, ref).node;
    const entry = {
      name: parameter.name,
      in: parameter.in,
      required: parameter.required === true,
      schema: lighten(parameter.schema ?? {}),
      explode: parameter.explode ?? parameter.style === undefined,
    };
    // A cursor comes from an earlier answer; the example one means nothing to another server.
    const example =
      raw["x-pagination"] && parameter.name === "cursor" ? undefined : parameterExample(parameter);
    if (example !== undefined) entry.example = example;
    return entry;
  });
  const entry = {
    id: raw.operationId,
    name: raw["x-interface-name"],
    method,
    path,
    call: `api.${raw["x-interface-name"].split(".").map(camelCase).join(".")}`,
    params,
    responses: responsesOf(doc, raw),
  };
  const body = bodyOf(doc, raw);
  if (body) {
    const media = deref(doc, raw.requestBody).node.content[body.type];
    entry.body = {
      type: body.type,
      required: raw.requestBody.required === true,
      schema: lighten(media.schema),
    };
    if (body.example !== undefined) entry.body.example = body.example;
  }
  return entry;
}

/** The console's data: every operation, and the components' schemas its schemas refer to. */
export function consoleData(doc, operations) {
  const schemas = Object.fromEntries(
    Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => [name, lighten(schema)]),
  );
  return { operations: operations.map((operation) => consoleOperation(doc, operation)), schemas };
}

/** errorTypes' answer per contract: the page asks once per operation. */
const errorTypesOf = new WeakMap();

/**
 * The error types the contract defines: type -> the name of its schema (`dev_org_deactivated` ->
 * ErrorDevOrgDeactivated). One map per contract, shared by every caller: read it, never change it.
 */
export function errorTypes(doc) {
  let out = errorTypesOf.get(doc);
  if (out) return out;
  out = new Map();
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const type = schema.properties?.type?.const;
    if (typeof type === "string" && /^Error/.test(name)) out.set(type, name);
  }
  errorTypesOf.set(doc, out);
  return out;
}
