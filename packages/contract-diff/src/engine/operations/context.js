// What the operation comparers share: the two documents and one schema differ over them, the direction data
// flows, and schema events handed on as operation events.

/**
 * @typedef {import("../schema/scope.js").Direction} Direction
 * @typedef {{ base: Record<string, any>, head: Record<string, any>,
 *   schemas: ReturnType<typeof import("../walk-schema.js").schemaDiffer> }} OperationContext
 * @typedef {(kind: string, fields: Record<string, any>) => void} Emit
 *   reports an event at the operation being compared
 */

/** @param {Direction} direction @returns {Direction} */
export const flip = (direction) => (direction === "request" ? "response" : "request");

/**
 * Schema events as events of the operation, at `where` (the schema's path below it appended).
 * @param {any[]} schemaEvents @param {Emit} emit @param {string} where
 */
export function forward(schemaEvents, emit, where) {
  for (const event of schemaEvents) emit(event.kind, { ...event, where: `${where}${event.path}` });
}
