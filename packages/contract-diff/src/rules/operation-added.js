/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-added",
  level: "info",
  doc: "An operation was added.",
  on: "operation",
  when: (e) => e.change === "added",
  message: () => "operation added",
  given: { operation: [undefined, { responses: { 200: { description: "ok" } } }] },
};
