// Which operations two contracts share: every operation of paths and webhooks (OpenAPI 3.1), keyed by method
// and path template, so renaming a path parameter (`{id}` -> `{workId}`) keeps it the same operation; a
// webhook is keyed by its name.
import { operationsOf } from "@workapi/spec";

/** `/works/{id}/parts/{part}` -> `/works/{}/parts/{}`: the shape two path templates share. */
export const templateOf = (/** @type {string} */ path) => path.replace(/\{[^}]*\}/g, "{}");

/**
 * One operation as @workapi/spec's contract model lists it (the raw objects typed as the differ reads them).
 * @typedef {import("@workapi/spec").ContractOperation & { operation: import("../json.js").Json,
 *   pathItem: import("../json.js").Json }} OperationEntry
 */

/**
 * Every operation of a document, paths' and webhooks' (@workapi/spec's operationsOf, which follows a path
 * item's `$ref` and skips one that dangles), keyed by what pairs it across two contracts.
 * @returns {Map<string, OperationEntry>}
 */
export function operationsByKey(/** @type {import("../json.js").Json} */ doc) {
  /** @type {Map<string, OperationEntry>} */
  const out = new Map();
  for (const entry of operationsOf(doc, { webhooks: true })) {
    const id = entry.webhook
      ? `webhook ${entry.method} ${entry.path}`
      : `${entry.method} ${templateOf(entry.path)}`;
    out.set(id, entry);
  }
  return out;
}

/**
 * The operation an event belongs to, as findings name it (its stability read from the head, else the base).
 * @param {OperationEntry} h @param {OperationEntry} [b]
 */
export function describe(h, b) {
  return {
    operationId: h.operation.operationId ?? `${h.method.toUpperCase()} ${h.path}`,
    method: h.method,
    path: h.path,
    webhook: h.webhook,
    stability: h.operation["x-stability-level"] ?? b?.operation["x-stability-level"],
  };
}
