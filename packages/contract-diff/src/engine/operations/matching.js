// Which operations two contracts share: every operation of paths and webhooks (OpenAPI 3.1), keyed by method
// and path template, so renaming a path parameter (`{id}` -> `{workId}`) keeps it the same operation; a
// webhook is keyed by its name.
import { child, isObject, resolve } from "../schema-view.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** `/works/{id}/parts/{part}` -> `/works/{}/parts/{}`: the shape two path templates share. */
export const templateOf = (/** @type {string} */ path) => path.replace(/\{[^}]*\}/g, "{}");

/**
 * @typedef {{ method: string, path: string, op: import("../json.js").Json, pointer: string, item: import("../json.js").Json, itemPointer: string,
 *   webhook: boolean }} OperationEntry
 */

/**
 * Every operation of a document: paths, and webhooks (OpenAPI 3.1), each with the pointer it lives at.
 * @returns {Map<string, OperationEntry>}
 */
export function operationsOf(/** @type {import("../json.js").Json} */ doc) {
  const out = new Map();
  const add = (
    /** @type {import("../json.js").Json} */ container,
    /** @type {string} */ containerPointer,
    /** @type {boolean} */ webhook,
  ) => {
    for (const [path, rawItem] of Object.entries(isObject(container) ? container : {})) {
      const resolved = resolve(doc, rawItem, child(containerPointer, path));
      for (const method of HTTP_METHODS) {
        const op = resolved.node[method];
        if (!isObject(op)) continue;
        const id = `${webhook ? "webhook " : ""}${method} ${webhook ? path : templateOf(path)}`;
        out.set(id, {
          method,
          path,
          op,
          pointer: child(resolved.pointer, method),
          item: resolved.node,
          itemPointer: resolved.pointer,
          webhook,
        });
      }
    }
  };
  add(doc.paths, "#/paths", false);
  add(doc.webhooks, "#/webhooks", true);
  return out;
}

/**
 * The operation an event belongs to, as findings name it (its stability read from the head, else the base).
 * @param {OperationEntry} h @param {OperationEntry} [b]
 */
export function describe(h, b) {
  return {
    operationId: h.op.operationId ?? `${h.method.toUpperCase()} ${h.path}`,
    method: h.method,
    path: h.path,
    webhook: h.webhook,
    stability: h.op["x-stability-level"] ?? b?.op["x-stability-level"],
  };
}
