// Parameters of an operation and its path item: matched by location and name (header names in any case, a
// path parameter by its position in the template), then added, removed, required, deprecated, serialized
// differently, or their schemas compared (sent by the caller: `outward`).
import { child, resolve } from "../schema-view.js";
import { forward } from "./context.js";

/**
 * @typedef {import("./context.js").OperationContext} OperationContext
 * @typedef {import("./context.js").Emit} Emit
 * @typedef {import("./context.js").Direction} Direction
 * @typedef {import("./matching.js").OperationEntry} OperationEntry
 */

/** The schema of a parameter: its `schema`, else the one of its first `content` entry. */
const schemaOf = (p) => p.schema ?? Object.values(p.content ?? {})[0]?.schema ?? {};

/** Where that schema lives, below the parameter's pointer `at`. */
const schemaPointer = (p, at) =>
  p.schema ? child(at, "schema") : child(at, "content", Object.keys(p.content ?? {})[0] ?? "", "schema");

/** @param {OperationEntry} entry @returns {Map<string, { node: any, pointer: string }>} */
function parametersOf(doc, entry) {
  const out = new Map();
  const list = [
    ...(Array.isArray(entry.item.parameters)
      ? entry.item.parameters.map((p, i) => [p, child(entry.itemPointer, "parameters", i)])
      : []),
    ...(Array.isArray(entry.op.parameters)
      ? entry.op.parameters.map((p, i) => [p, child(entry.pointer, "parameters", i)])
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
 * @param {OperationContext} context @param {{ node: any, pointer: string }} old
 * @param {{ node: any, pointer: string }} current @param {Emit} emit @param {Direction} outward
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
  const schemaEvents = context.schemas.compare(
    schemaOf(old.node),
    schemaPointer(old.node, old.pointer),
    schemaOf(node),
    schemaPointer(node, pointer),
    outward,
    { parameter: true },
  );
  forward(schemaEvents, emit, where);
}
