// Pairs the operations of two contracts and reports what changed around them as events: operations,
// deprecation and stability, security, parameters, request bodies, responses and their headers, webhooks
// and callbacks (the modules in operations/, one per concern). Schemas are handed to walk-schema.js with the
// direction their data flows. An operation is matched by method and path template, so renaming a path
// parameter (`{id}` -> `{workId}`) keeps it the same operation.
import { compareComponents } from "./operations/components.js";
import { describe, HTTP_METHODS, operationsOf, templateOf } from "./operations/matching.js";
import { checkAddedMarks, compareOperation } from "./operations/operation.js";
import { schemaDiffer } from "./walk-schema.js";

/**
 * @param {Record<string, any>} base
 * @param {Record<string, any>} head
 * @returns {any[]} events, each with `operation` ({ operationId, method, path, stability, webhook }) and `where`
 */
export function walkOperations(base, head) {
  /** @type {import("./operations/context.js").OperationContext} */
  const context = { base, head, schemas: schemaDiffer(base, head) };
  const events = [];
  const before = operationsOf(base);
  const after = operationsOf(head);
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
      deprecated: b.op.deprecated === true,
      sunset: b.op["x-sunset"],
      stability: b.op["x-stability-level"],
      pathRemains: others.length > 0,
    });
  }
  compareComponents(base, head, events);
  return events;
}

/**
 * The head's operations: added, or compared with the base's (skipped when the operation, its path item's
 * parameters and the security it inherits read the same).
 * @param {import("./operations/context.js").OperationContext} context
 * @param {ReturnType<typeof operationsOf>} before @param {ReturnType<typeof operationsOf>} after
 * @param {any[]} events
 */
function compareKept(context, before, after, events) {
  const { base, head, schemas } = context;
  for (const [id, h] of after) {
    const b = before.get(id);
    const operation = describe(h, b);
    const emit = (kind, fields) =>
      events.push({ kind, operation, where: "", pointer: h.pointer, side: "head", ...fields });
    if (!b) {
      emit(h.webhook ? "webhook" : "operation", { change: "added" });
      checkAddedMarks(h.op, emit);
      continue;
    }
    if (
      schemas.same(b.op, h.op) &&
      schemas.same(b.item.parameters, h.item.parameters) &&
      (b.op.security !== undefined || schemas.same(base.security, head.security))
    )
      continue;
    compareOperation(context, b, h, operation, emit, h.webhook ? "response" : "request");
  }
}
