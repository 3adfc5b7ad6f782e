import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The path of the bundled contract as JSON: this package's, or the one in the folder WORKAPI_SPEC_DIR names
 * (`pnpm dev` starts the reference server on the contract being edited, wherever it is bundled to).
 */
export const specPath = process.env.WORKAPI_SPEC_DIR
  ? pathToFileURL(join(process.env.WORKAPI_SPEC_DIR, "openapi.json"))
  : new URL("./openapi.json", import.meta.url);

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
 * `doc`, or undefined when it names nothing. A segment that is no valid URI encoding (a key holding a literal
 * `%`) is read as written: the contract review reads contracts that may have such keys.
 */
export function jsonPointer(doc, pointer) {
  if (typeof pointer !== "string" || !pointer.startsWith("#")) return undefined;
  let node = doc;
  for (const raw of pointer.slice(1).split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[uriDecoded(raw).replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return node;
}

function uriDecoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
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

// The options every validator of this contract is made with; in a module of their own, which
// @workapi/spec/validators imports too, so that a bundle of the validators holds them without the contract.
export { VALIDATOR_OPTIONS } from "./validator-options.js";

/**
 * An `x-sunset` or `x-deprecated-at` value as a Date: a Date, or a string that starts as an RFC 3339 date
 * (`2027-06-30`, or a date-time) and parses; undefined for anything else, absent or not. The server's headers,
 * the contract review's policy and the docs' badges all read these dates here, so a value one of them takes
 * for a date is a date to all of them.
 */
export function readContractDate(value) {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * The calendar day of an `x-sunset` or `x-deprecated-at` value as `YYYY-MM-DD`, or undefined when it is no
 * date. A string keeps the day it was written with (`2027-06-30T23:00:00-05:00` is the 30th, where it was
 * written, though the 1st in UTC); a Date is read in UTC.
 */
export function contractDay(value) {
  if (readContractDate(value) === undefined) return undefined;
  return value instanceof Date ? value.toISOString().slice(0, 10) : value.slice(0, 10);
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * Follows a path item's `$ref`s without throwing: the item and the pointer it lives at, or undefined when a
 * reference dangles or loops. A contract under review may be broken; its other operations still count.
 */
function pathItemAt(doc, item, pointer) {
  try {
    const { node, ref } = deref(doc, item);
    return isObject(node) ? { node, pointer: ref ?? pointer } : undefined;
  } catch {
    return undefined;
  }
}

/** `a/b~c` -> `a~1b~0c`: one segment of a JSON pointer (RFC 6901). */
const segment = (key) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * One operation of a contract. The raw objects are the document's own; `parameters`, `requestBody` and
 * `responses` are resolved when first read (a class's getters, not fields), so listing the operations of a
 * contract with a dangling `$ref` (the contract review reads broken ones) throws only for whoever reads them.
 */
class ContractOperation {
  #doc;
  #resolved = new Map();

  constructor(doc, { method, path, operation, pathItem, pointer, pathItemPointer, webhook }) {
    this.#doc = doc;
    const id = operation.operationId;
    this.operationId = typeof id === "string" ? id : undefined;
    this.name = this.operationId ?? `${method.toUpperCase()} ${path}`;
    const interfaceName = operation["x-interface-name"];
    this.interfaceName = typeof interfaceName === "string" ? interfaceName : undefined;
    this.method = method;
    this.path = path;
    this.webhook = webhook;
    this.operation = operation;
    this.pathItem = pathItem;
    this.pointer = pointer;
    this.pathItemPointer = pathItemPointer;
    this.tags = Array.isArray(operation.tags) ? operation.tags : [];
    // The contract marks its safe operations (`x-safe`: a POST form of a read is safe too); without the mark,
    // HTTP's own safe methods are.
    this.safe =
      typeof operation["x-safe"] === "boolean" ? operation["x-safe"] : method === "get" || method === "head";
    this.deprecated = operation.deprecated === true;
    this.deprecatedAt = readContractDate(operation["x-deprecated-at"]);
    this.sunset = readContractDate(operation["x-sunset"]);
    const stability = operation["x-stability-level"];
    this.stability = typeof stability === "string" ? stability : undefined;
  }

  #once(key, make) {
    if (!this.#resolved.has(key)) this.#resolved.set(key, make());
    return this.#resolved.get(key);
  }

  /** The path item's parameters and the operation's, `$ref`s resolved; the operation's win by name and place. */
  get parameters() {
    return this.#once("parameters", () => {
      const byPlace = new Map();
      for (const list of [this.pathItem.parameters, this.operation.parameters]) {
        for (const raw of Array.isArray(list) ? list : []) {
          const parameter = resolveRef(this.#doc, raw);
          byPlace.set(`${parameter.in} ${parameter.name}`, parameter);
        }
      }
      return [...byPlace.values()];
    });
  }

  /** The request body, its `$ref`s resolved, or undefined. */
  get requestBody() {
    return this.#once("requestBody", () =>
      this.operation.requestBody === undefined
        ? undefined
        : resolveRef(this.#doc, this.operation.requestBody),
    );
  }

  /** The answers by status (`200`, `default`), their `$ref`s resolved, in the document's order. */
  get responses() {
    return this.#once("responses", () =>
      Object.fromEntries(
        Object.entries(this.operation.responses ?? {}).map(([status, raw]) => [
          status,
          resolveRef(this.#doc, raw),
        ]),
      ),
    );
  }
}

/**
 * Every operation of `doc` in document order: each path's, in HTTP_METHODS order, then (with
 * `{ webhooks: true }`) each webhook's. Each is a ContractOperation (index.d.ts): its names, method and path,
 * the raw objects and the pointers they live at, its resolved parameters, body and answers, and what the
 * contract says of it (safe, deprecated, its dates, its stability level).
 */
export function operationsOf(doc, { webhooks = false } = {}) {
  const operations = [];
  const add = (container, containerPointer, webhook) => {
    for (const [path, raw] of Object.entries(isObject(container) ? container : {})) {
      const item = pathItemAt(doc, raw, `${containerPointer}/${segment(path)}`);
      if (!item) continue;
      for (const method of HTTP_METHODS) {
        const operation = item.node[method];
        if (!isObject(operation)) continue;
        operations.push(
          new ContractOperation(doc, {
            method,
            path,
            operation,
            pathItem: item.node,
            pointer: `${item.pointer}/${method}`,
            pathItemPointer: item.pointer,
            webhook,
          }),
        );
      }
    }
  };
  add(doc?.paths, "#/paths", false);
  if (webhooks) add(doc?.webhooks, "#/webhooks", true);
  return operations;
}
