// Pairs the operations of two contracts and reports what changed around them as events: operations,
// deprecation and stability, security, parameters, request bodies, responses and their headers, webhooks
// and callbacks (the modules in operations/, one per concern). Schemas are handed to walk-schema.js with the
// direction their data flows. An operation is matched by method and path template, so renaming a path
// parameter (`{id}` -> `{workId}`) keeps it the same operation.
import { HTTP_METHODS } from "@workapi/spec";
import { compareComponents } from "./operations/components.js";
import { describe, operationsByKey, templateOf } from "./operations/matching.js";
import { checkAddedMarks, compareOperation } from "./operations/operation.js";
import { isObject, key } from "./schema-view.js";
import { schemaDiffer } from "./walk-schema.js";

/**
 * @param {Record<string, import("./json.js").Json>} base
 * @param {Record<string, import("./json.js").Json>} head
 * @param {import("./schema/scope.js").Unchanged} [unchanged] what the loaded files' texts tell is unchanged
 * @returns {import("./json.js").Json[]} events, each with `operation` ({ operationId, method, path, stability, webhook }) and `where`
 */
export function walkOperations(base, head, unchanged = () => false) {
  /** @type {import("./operations/context.js").OperationContext} */
  const context = { base, head, schemas: schemaDiffer(base, head, unchanged) };
  /** @type {import("../index.js").ChangeEvent[]} */
  const events = [];
  const kept = keptItems(base, head, unchanged);
  const before = operationsByKey(without(base, kept));
  const after = operationsByKey(without(head, kept));
  compareKept(context, before, after, events);
  for (const [id, b] of before) {
    if (after.has(id)) continue;
    const operation = describe(b);
    const others = HTTP_METHODS.filter((m) => after.has(`${m} ${templateOf(b.path)}`));
    events.push({
      kind: b.webhook ? "webhook" : "operation",
      change: "removed",
      operation,
      where: "",
      pointer: b.pointer,
      side: "base",
      deprecated: b.deprecated,
      sunset: b.operation["x-sunset"],
      stability: b.operation["x-stability-level"],
      pathRemains: others.length > 0,
    });
  }
  compareComponents(base, head, events);
  return events;
}

/**
 * The path items and webhooks that are the same `$ref` on both sides to files whose texts (and those they
 * reach) are the same: none of their operations changed, so they are neither read nor parsed. Only when the
 * security they may inherit reads the same, and no other path shares their template (a renamed path
 * parameter pairs operations across path keys).
 * @param {Record<string, import("./json.js").Json>} base @param {Record<string, import("./json.js").Json>} head
 * @param {import("./schema/scope.js").Unchanged} unchanged
 * @returns {{ paths: Set<string>, webhooks: Set<string> }}
 */
function keptItems(base, head, unchanged) {
  /** @param {import("./json.js").Json} item @returns {string | undefined} */
  const refOf = (item) =>
    isObject(item) && typeof item.$ref === "string" && Object.keys(item).length === 1 ? item.$ref : undefined;
  /** @param {unknown} container @returns {Record<string, import("./json.js").Json>} */
  const entries = (container) => (isObject(container) ? container : {});
  /** @param {string} name */
  const same = (name, /** @type {string} */ kind) => {
    const ref = refOf(entries(base[kind])[name]);
    return ref !== undefined && ref === refOf(entries(head[kind])[name]) && unchanged(ref, ref);
  };
  const paths = new Set();
  if (key(base.security) === key(head.security)) {
    const templates = new Map();
    for (const path of new Set([...Object.keys(entries(base.paths)), ...Object.keys(entries(head.paths))])) {
      const template = templateOf(path);
      templates.set(template, (templates.get(template) ?? 0) + 1);
    }
    for (const path of Object.keys(entries(head.paths)))
      if (templates.get(templateOf(path)) === 1 && same(path, "paths")) paths.add(path);
  }
  const webhooks = new Set(Object.keys(entries(head.webhooks)).filter((name) => same(name, "webhooks")));
  return { paths, webhooks };
}

/**
 * The document without the kept path items and webhooks (a shallow copy; the document itself is not changed).
 * @param {Record<string, import("./json.js").Json>} doc @param {{ paths: Set<string>, webhooks: Set<string> }} kept
 */
function without(doc, kept) {
  if (kept.paths.size === 0 && kept.webhooks.size === 0) return doc;
  /** @param {unknown} container @param {Set<string>} names */
  const drop = (container, names) =>
    isObject(container)
      ? Object.fromEntries(Object.entries(container).filter(([name]) => !names.has(name)))
      : container;
  return { ...doc, paths: drop(doc.paths, kept.paths), webhooks: drop(doc.webhooks, kept.webhooks) };
}

/**
 * The head's operations: added, or compared with the base's (skipped when the operation, its path item's
 * parameters and the security it inherits read the same).
 * @param {import("./operations/context.js").OperationContext} context
 * @param {ReturnType<typeof operationsByKey>} before @param {ReturnType<typeof operationsByKey>} after
 * @param {import("../index.js").ChangeEvent[]} events
 */
function compareKept(context, before, after, events) {
  const { base, head, schemas } = context;
  for (const [id, h] of after) {
    const b = before.get(id);
    const operation = describe(h, b);
    const emit = (/** @type {string} */ kind, /** @type {Record<string, unknown>} */ fields) =>
      events.push({ kind, operation, where: "", pointer: h.pointer, side: "head", ...fields });
    if (!b) {
      emit(h.webhook ? "webhook" : "operation", { change: "added" });
      checkAddedMarks(h.operation, emit);
      continue;
    }
    if (
      schemas.same(b.operation, h.operation) &&
      schemas.same(b.pathItem.parameters, h.pathItem.parameters) &&
      (b.operation.security !== undefined || schemas.same(base.security, head.security))
    )
      continue;
    compareOperation(context, b, h, operation, emit, h.webhook ? "response" : "request");
  }
}
