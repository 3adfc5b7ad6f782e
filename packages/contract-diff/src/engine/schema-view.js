// How the differ reads one side of a contract: JSON pointers, $ref resolution that remembers where a node
// lives (so a finding can name the file and line of a shared schema), allOf merged into one view of an
// object, and the set of JSON types a schema admits (OpenAPI 3.0 `nullable` included).
import { jsonPointer } from "@workapi/spec";

/** `a/b~c` -> `a~1b~0c`: one JSON pointer segment (RFC 6901). */
export const escapeSegment = (/** @type {string | number} */ segment) =>
  String(segment).replaceAll("~", "~0").replaceAll("/", "~1");

/** Appends segments to a `#/...` pointer. */
export const child = (/** @type {string} */ pointer, /** @type {(string | number)[]} */ ...segments) =>
  `${pointer}/${segments.map(escapeSegment).join("/")}`;

/**
 * The node a local pointer names in `doc`, or undefined: @workapi/spec's jsonPointer, which reads a segment that
 * is no valid URI encoding (a literal % in a key) as written.
 */
export const atPointer = (/** @type {import("./json.js").Json} */ doc, /** @type {string} */ pointer) =>
  jsonPointer(doc, pointer);

/** @param {unknown} value @returns {value is Record<string, import("./json.js").Json>} */
export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Follows `$ref`s from `node` found at `pointer`: the node it ends on and the pointer of that node. A dangling
 * or circular chain ends on an empty schema at the last pointer reached (the differ never throws on a bad
 * reference; the loader reports those).
 * @returns {{ node: Record<string, import("./json.js").Json>, pointer: string, ref?: string }}
 */
export function resolve(
  /** @type {import("./json.js").Json} */ doc,
  /** @type {import("./json.js").Json} */ node,
  /** @type {string} */ pointer,
) {
  let ref;
  const seen = new Set();
  while (isObject(node) && typeof node.$ref === "string" && node.$ref.startsWith("#")) {
    if (seen.has(node.$ref)) return { node: {}, pointer, ref };
    seen.add(node.$ref);
    ref = node.$ref;
    const target = atPointer(doc, ref);
    // OpenAPI 3.1 lets a $ref sit beside other keywords: those siblings apply together with the target.
    const { $ref: _ignored, ...siblings } = node;
    pointer = ref;
    node = isObject(target) ? mergeSiblings(target, siblings) : {};
  }
  return { node: isObject(node) ? node : {}, pointer, ref };
}

function mergeSiblings(
  /** @type {import("./json.js").Json} */ target,
  /** @type {import("./json.js").Json} */ siblings,
) {
  const keys = Object.keys(siblings).filter((key) => !ANNOTATIONS.has(key));
  return keys.length === 0 ? target : { allOf: [target, siblings] };
}

/** Keywords that describe a value without constraining it. */
export const ANNOTATIONS = new Set([
  "title",
  "description",
  "summary",
  "example",
  "examples",
  "$comment",
  "externalDocs",
  "xml",
  "deprecated",
  "x-sunset",
  "x-stability-level",
]);

/** True when a schema only annotates (every keyword is a description, an example or an `x-` extension). */
export const annotationOnly = (/** @type {import("./json.js").Json} */ schema) =>
  isObject(schema) && Object.keys(schema).every((key) => ANNOTATIONS.has(key) || key.startsWith("x-"));

/**
 * One view of an object schema with its allOf members merged: properties (each with the pointer it lives at),
 * required names, and the schema's own keywords (allOf members fill keywords the schema leaves unset).
 * @returns {{ own: Record<string, import("./json.js").Json>, pointer: string,
 *   properties: Map<string, { schema: import("./json.js").Json, pointer: string }>,
 *   required: Set<string>, closed: boolean, noAdditional: boolean }}
 *   `closed`: unknown properties are refused (additionalProperties or unevaluatedProperties false);
 *   `noAdditional`: additionalProperties false itself
 */
export function view(
  /** @type {import("./json.js").Json} */ doc,
  /** @type {import("./json.js").Json} */ schema,
  /** @type {string} */ pointer,
  chain = new Set(),
) {
  const resolved = resolve(doc, schema, pointer);
  const node = resolved.node;
  const out = {
    own: { ...node },
    pointer: resolved.pointer,
    properties: new Map(),
    required: new Set(),
    noAdditional: false,
    closed: false,
  };
  delete out.own.allOf;
  for (const [name, property] of Object.entries(isObject(node.properties) ? node.properties : {})) {
    out.properties.set(name, { schema: property, pointer: child(resolved.pointer, "properties", name) });
  }
  for (const name of Array.isArray(node.required) ? node.required : []) out.required.add(name);
  out.noAdditional = node.additionalProperties === false;
  out.closed = out.noAdditional || node.unevaluatedProperties === false;
  if (chain.has(resolved.pointer)) return out;
  const inner = new Set(chain).add(resolved.pointer);
  (Array.isArray(node.allOf) ? node.allOf : []).forEach((member, index) => {
    const part = view(doc, member, child(resolved.pointer, "allOf", index), inner);
    for (const [name, property] of part.properties) {
      const mine = out.properties.get(name);
      out.properties.set(
        name,
        mine ? { schema: { allOf: [mine.schema, property.schema] }, pointer: mine.pointer } : property,
      );
    }
    for (const name of part.required) out.required.add(name);
    if (part.closed) out.closed = true;
    if (part.noAdditional) out.noAdditional = true;
    for (const [key, value] of Object.entries(part.own)) {
      if (out.own[key] === undefined && key !== "properties" && key !== "required") out.own[key] = value;
    }
  });
  return out;
}

/** The JSON types a schema admits, or undefined when it says nothing about types (any value). */
export function typesOf(/** @type {import("./json.js").Json} */ schema) {
  let types;
  if (Array.isArray(schema.type)) types = new Set(schema.type);
  else if (typeof schema.type === "string") types = new Set([schema.type]);
  else if (isObject(schema.properties) || schema.additionalProperties !== undefined)
    types = new Set(["object"]);
  else if (schema.items !== undefined || schema.prefixItems !== undefined) types = new Set(["array"]);
  else return undefined;
  if (schema.nullable === true) types.add("null");
  return types;
}

/** True when every value of type `type` is also a value of one of `types` (an integer is a number). */
export const typeCovered = (/** @type {Set<string>} */ types, /** @type {string} */ type) =>
  types.has(type) || (type === "integer" && types.has("number"));

/** The values an enum-like schema allows (`enum` or `const`), or undefined. */
export const enumOf = (/** @type {import("./json.js").Json} */ schema) =>
  Array.isArray(schema.enum) ? schema.enum : undefined;

/** Stable text of a JSON value, for set comparisons. */
export const key = (/** @type {import("./json.js").Json} */ value) => JSON.stringify(value);
