// The schemas the console checks requests with (./request-validators.mjs compiles them), apart from Ajv: the
// docs generator reads them to know whether the last compiled checks still hold without loading the compiler,
// and hands the compiler what `checkedSchemas` answers: the same without annotations, so that a save that
// changes only a description (or a title, an example) reuses the last checks.
import { operationsOf } from "@workapi/spec";

/** The request schemas of `doc` by operationId: { bodies, queries }, as the server validates requests. */
export function requestSchemas(doc) {
  const bodies = {};
  const queries = {};
  for (const { method, operationId, parameters, requestBody } of operationsOf(doc)) {
    if (method === "get") {
      const inQuery = parameters.filter((p) => p.in === "query");
      queries[operationId] = {
        type: "object",
        additionalProperties: false,
        required: inQuery.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(inQuery.map((p) => [p.name, p.schema])),
      };
    } else if (requestBody) {
      // Only JSON bodies: the console sends no multipart body (file uploads are the curl sample's).
      const schema = requestBody.content?.["application/json"]?.schema;
      if (schema) bodies[operationId] = schema;
    }
  }
  return { bodies, queries };
}

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a subschema or an array of them. */
const SCHEMA_KEYWORDS = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "contentSchema",
]);
/**
 * Keywords Ajv makes no code for (annotations, under the `strict: false` of VALIDATOR_OPTIONS unknown keywords
 * and `x-` extensions too): left out, the compiled checks are byte for byte the same (`pnpm drift` compares
 * console.js with what the unstripped schemas gave). `default` stays: the validators fill defaults in.
 */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "example",
  "examples",
  "externalDocs",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "xml",
]);

/** `schema` without its annotations, at every level where a schema stands (not in `enum`, `const`, `default`). */
export function withoutAnnotations(schema) {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (!schema || typeof schema !== "object") return schema;
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    if (SCHEMA_KEYWORDS.has(key)) kept[key] = withoutAnnotations(value);
    else if (SCHEMA_MAPS.has(key) && value && typeof value === "object" && !Array.isArray(value))
      kept[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub)]),
      );
    else kept[key] = value;
  }
  return kept;
}

/** The names of the contract's named schemas that `schema` refers to (`#/components/schemas/<name>`), directly. */
function referencedNames(schema, names = new Set()) {
  if (Array.isArray(schema)) for (const item of schema) referencedNames(item, names);
  else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/"))
        names.add(decodeURIComponent(value.slice("#/components/schemas/".length).split("/")[0]));
      else referencedNames(value, names);
    }
  }
  return names;
}

/**
 * What the console's checks are compiled from, one part per compiled module: { bodies, queries }, each
 * { components, schemas }, its request schemas (requestSchemas's) and the contract's named schemas they
 * reach, all without annotations. A part holds only what its code is made from, so a save that changes one
 * part (a request body's schema, say) leaves the other's compiled module as it was. (Named schemas are the only
 * components a request schema refers to; a reference to another part would fail the compile, not pass
 * silently.)
 */
export function checkedSchemas(doc) {
  const named = doc.components?.schemas ?? {};
  const part = (requests) => {
    const schemas = Object.fromEntries(
      Object.entries(requests).map(([id, schema]) => [id, withoutAnnotations(schema)]),
    );
    const reached = new Map();
    const reach = (schema) => {
      for (const name of referencedNames(schema)) {
        if (reached.has(name) || !(name in named)) continue;
        reached.set(name, withoutAnnotations(named[name]));
        reach(reached.get(name));
      }
    };
    reach(schemas);
    // In the contract's order, as the whole set of named schemas was handed to the compiler.
    const schemasReached = Object.fromEntries(
      Object.keys(named)
        .filter((name) => reached.has(name))
        .map((name) => [name, reached.get(name)]),
    );
    return { components: { schemas: schemasReached }, schemas };
  };
  const { bodies, queries } = requestSchemas(doc);
  return { bodies: part(bodies), queries: part(queries) };
}
