/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-id-changed",
  level: "info",
  doc: "An operation's operationId changed: generated clients rename the method.",
  on: "operation-id",
  when: () => true,
  message: (e) => `operationId ${e.before ?? "(none)"} -> ${e.after ?? "(none)"}`,
  given: {
    operation: [
      { operationId: "a", responses: { 200: { description: "ok" } } },
      { operationId: "b", responses: { 200: { description: "ok" } } },
    ],
  },
};
