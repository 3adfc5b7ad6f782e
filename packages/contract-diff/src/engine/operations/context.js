// What the operation comparers share: the two documents and one schema differ over them, the direction data
// flows, and schema events handed on as operation events.

/**
 * @typedef {import("../schema/scope.js").Direction} Direction
 * @typedef {{ base: Record<string, import("../json.js").Json>, head: Record<string, import("../json.js").Json>,
 *   schemas: ReturnType<typeof import("../walk-schema.js").schemaDiffer> }} OperationContext
 * @typedef {(kind: string, fields: Record<string, import("../json.js").Json>) => void} Emit
 *   reports an event at the operation being compared
 */

/** @param {Direction} direction @returns {Direction} */
export const flip = (direction) => (direction === "request" ? "response" : "request");

/**
 * Schema events as events of the operation, at `where` (the schema's path below it appended).
 * @param {import("../json.js").Json[]} schemaEvents @param {Emit} emit @param {string} where
 */
export function forward(schemaEvents, emit, where) {
  for (const event of schemaEvents) emit(event.kind, { ...event, where: `${where}${event.path}` });
}
