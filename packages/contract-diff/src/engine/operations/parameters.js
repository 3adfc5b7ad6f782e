// Parameters of an operation and its path item: matched by location and name (header names in any case, a
// path parameter by its position in the template), then added, removed, required, deprecated, serialized
// differently, or their schemas compared (sent by the caller: `outward`).
import { child, resolve, typesOf } from "../schema-view.js";
import { forward } from "./context.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 * @typedef {import("./matching.js").OperationEntry} OperationEntry
 */

/** The schema of a parameter: its `schema`, else the one of its first `content` entry. */
const schemaOf = (/** @type {import("../json.js").Json} */ p) =>
  p.schema ?? Object.values(p.content ?? {})[0]?.schema ?? {};

/** Where that schema lives, below the parameter's pointer `at`. */
const schemaPointer = (/** @type {import("../json.js").Json} */ p, /** @type {string} */ at) =>
  p.schema ? child(at, "schema") : child(at, "content", Object.keys(p.content ?? {})[0] ?? "", "schema");

/** @param {OperationEntry} entry @returns {Map<string, { node: import("../json.js").Json, pointer: string }>} */
function parametersOf(/** @type {import("../json.js").Json} */ doc, entry) {
  const out = new Map();
  const list = [
    ...(Array.isArray(entry.pathItem.parameters)
      ? entry.pathItem.parameters.map(
          (/** @type {import("../json.js").Json} */ p, /** @type {number} */ i) => [
            p,
            child(entry.pathItemPointer, "parameters", i),
          ],
        )
      : []),
    ...(Array.isArray(entry.operation.parameters)
      ? entry.operation.parameters.map(
          (/** @type {import("../json.js").Json} */ p, /** @type {number} */ i) => [
            p,
            child(entry.pointer, "parameters", i),
          ],
        )
      : []),
  ];
  const template = [...entry.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const [raw, pointer] of list) {
    const { node, pointer: at } = resolve(doc, raw, pointer);
    if (typeof node.name !== "string" || typeof node.in !== "string") continue;
    let id = `${node.in}.${node.in === "header" ? node.name.toLowerCase() : node.name}`;
    if (node.in === "path" && !entry.webhook && template.includes(node.name))
      id = `path.#${template.indexOf(node.name)}`;
    out.set(id, { node, pointer: at });
  }
  return out;
}

/**
 * @param {OperationContext} context @param {OperationEntry} b @param {OperationEntry} h @param {Emit} emit
 * @param {Direction} outward
 */
export function compareParameters(context, b, h, emit, outward) {
  const bp = parametersOf(context.base, b);
  const hp = parametersOf(context.head, h);
  for (const [id, { node, pointer }] of hp) {
    const old = bp.get(id);
    if (old) {
      compareParameter(context, old, { node, pointer }, emit, outward);
      continue;
    }
    emit("parameter", {
      change: "added",
      in: node.in,
      name: node.name,
      required: node.required === true || node.in === "path",
      hasDefault: resolve(context.head, schemaOf(node), "#").node.default !== undefined,
      where: `${node.in}.${node.name}`,
      pointer,
    });
  }
  for (const [id, { node, pointer }] of bp) {
    if (hp.has(id)) continue;
    emit("parameter", {
      change: "removed",
      removedFrom: pointer,
      in: node.in,
      name: node.name,
      deprecated: node.deprecated === true,
      sunset: node["x-sunset"],
      where: `${node.in}.${node.name}`,
      pointer: child(h.pointer, "parameters"),
    });
  }
}

/**
 * A parameter on both sides.
 * @param {OperationContext} context @param {{ node: import("../json.js").Json, pointer: string }} old
 * @param {{ node: import("../json.js").Json, pointer: string }} current @param {Emit} emit @param {Direction} outward
 */
function compareParameter(context, old, { node, pointer }, emit, outward) {
  const where = `${node.in}.${node.name}`;
  const was = old.node.required === true;
  const is = node.required === true;
  if (was !== is) emit("parameter-required", { change: is ? "set" : "unset", where, pointer, in: node.in });
  if (Boolean(old.node.deprecated) !== Boolean(node.deprecated)) {
    emit("parameter-deprecated", {
      change: node.deprecated ? "set" : "unset",
      sunset: node["x-sunset"],
      where,
      pointer,
    });
  } else if (node.deprecated && old.node["x-sunset"] !== node["x-sunset"]) {
    const before = old.node["x-sunset"];
    const after = node["x-sunset"];
    const change = after === undefined ? "unset" : before === undefined ? "set" : "changed";
    emit("parameter-sunset", { change, before, after, where, pointer });
  }
  for (const field of ["style", "explode", "allowReserved"]) {
    if (old.node[field] !== node[field])
      emit("parameter-serialization", { field, before: old.node[field], after: node[field], where, pointer });
  }
  const flags = { parameter: true, text: !sentAsJson(old.node) && !sentAsJson(node) };
  const bPointer = schemaPointer(old.node, old.pointer);
  const hPointer = schemaPointer(node, pointer);
  const items = explodedItems(context, old.node, bPointer, node, hPointer);
  if (items) {
    // One value on the wire (`?tag=a`) is an exploded list of one item: the list's items are compared with
    // the old value, and the type is widened.
    emit("type", {
      change: "widened",
      direction: outward,
      before: items.before,
      after: "array",
      flags,
      where,
      pointer: hPointer,
    });
    const events = context.schemas.compare(
      schemaOf(old.node),
      bPointer,
      items.schema,
      items.pointer,
      outward,
      flags,
    );
    forward(events, emit, `${where}[]`);
    return;
  }
  forward(
    context.schemas.compare(schemaOf(old.node), bPointer, schemaOf(node), hPointer, outward, flags),
    emit,
    where,
  );
}

/** A parameter sent as JSON content (`content: { application/json: ... }`) keeps its JSON types on the wire. */
const sentAsJson = (/** @type {import("../json.js").Json} */ p) =>
  p.schema === undefined && Object.keys(p.content ?? {}).some((media) => /[/+]json\b/i.test(media));

/**
 * When a query or cookie parameter that took one value became an exploded form list (`style: form`,
 * `explode: true`, the defaults there), each value is sent as its own `name=value` pair, so what callers
 * sent reads as a list of one item: the new list's items schema and pointer, and the old types as text.
 * @param {OperationContext} context @param {import("../json.js").Json} old @param {string} bPointer @param {import("../json.js").Json} node
 * @param {string} hPointer
 * @returns {{ schema: import("../json.js").Json, pointer: string, before: string } | undefined}
 */
function explodedItems(context, old, bPointer, node, hPointer) {
  if (node.in !== "query" && node.in !== "cookie") return undefined;
  if ((node.style ?? "form") !== "form" || node.explode === false) return undefined;
  if (old.schema === undefined || node.schema === undefined) return undefined;
  const b = resolve(context.base, old.schema, bPointer).node;
  const h = resolve(context.head, node.schema, hPointer);
  const bt = typesOf(b);
  const ht = typesOf(h.node);
  if (bt?.has("array") || bt?.has("object") || !ht || ht.size !== 1 || !ht.has("array")) return undefined;
  if (h.node.items === undefined || h.node.items === true) return undefined;
  return {
    schema: h.node.items,
    pointer: child(h.pointer, "items"),
    before: bt ? [...bt].join(" | ") : "any",
  };
}
