import { readFileSync } from "node:fs";

/** The path of the bundled contract as JSON. */
export const specPath = new URL("./openapi.json", import.meta.url);

/** The bundled OpenAPI 3.1 contract, parsed. Every call returns a fresh copy that the caller may change. */
export function loadSpec() {
  return JSON.parse(readFileSync(specPath, "utf8"));
}

/** The HTTP methods an OpenAPI path item may hold operations under, in the order the specification lists them. */
export const HTTP_METHODS = Object.freeze([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);

/**
 * The node a local JSON pointer (`#/components/schemas/Work`, RFC 6901, optionally URI-encoded) names in
 * `doc`, or undefined when it names nothing.
 */
export function jsonPointer(doc, pointer) {
  if (typeof pointer !== "string" || !pointer.startsWith("#")) return undefined;
  let node = doc;
  for (const raw of pointer.slice(1).split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

/**
 * Follows a chain of local `$ref`s from `node`: the node it ends on and the last `$ref` followed (the name the
 * node goes by), or `ref` undefined when `node` was no reference. A cycle or a dangling reference throws.
 */
export function deref(doc, node) {
  let ref;
  const seen = new Set();
  while (node !== null && typeof node === "object" && typeof node.$ref === "string") {
    if (seen.has(node.$ref)) throw new Error(`$ref cycle through ${node.$ref}`);
    seen.add(node.$ref);
    ref = node.$ref;
    node = jsonPointer(doc, ref);
    if (node === undefined) throw new Error(`$ref ${ref} names nothing in the document`);
  }
  return { node, ref };
}

/** `deref(doc, node).node`: the node a chain of `$ref`s ends on (the node itself when it is no reference). */
export function resolveRef(doc, node) {
  return deref(doc, node).node;
}

/** `org-schedule-fragments` -> `orgScheduleFragments`: how an operation name's segment is spelled in code. */
export function camelCase(segment) {
  return segment.replace(/-([a-z0-9])/g, (_, letter) => letter.toUpperCase());
}

/**
 * The record families `doc` states (`x-record-families` on the schemas of their records, spec/README.md), in
 * document order: each `{ name, prefix, idType, kind, displayName, schema }`, where `schema` names the schema
 * that states it and `kind` is undefined for the families the server keeps apart from its records.
 */
export function recordFamilies(doc) {
  const families = [];
  for (const [schema, node] of Object.entries(doc?.components?.schemas ?? {})) {
    for (const family of node?.["x-record-families"] ?? []) {
      families.push({
        name: family.name,
        prefix: family.prefix,
        idType: family["id-type"],
        kind: family.kind,
        displayName: family["display-name"],
        schema,
      });
    }
  }
  return families;
}

/**
 * The options every validator of this contract is made with (Ajv, JSON Schema 2020-12): `inputs` for request
 * bodies, `queries` for query strings (a lone value read as a one-item list), `outputs` for answers (every
 * error listed). The reference server validates with them, and the contract review shows breaks with them, so
 * both say the same about the same example.
 */
export const VALIDATOR_OPTIONS = Object.freeze({
  inputs: Object.freeze({ strict: false, allErrors: false, useDefaults: true, coerceTypes: false }),
  queries: Object.freeze({ strict: false, allErrors: false, useDefaults: true, coerceTypes: "array" }),
  outputs: Object.freeze({ strict: false, allErrors: true }),
});
