/** @type {import("./rule.js").Rule} */
export default {
  id: "response-success-status-removed",
  level: "error",
  doc: "A success status is no longer answered: readers that handle it break.",
  on: "response",
  when: (e) => e.change === "removed" && e.success,
  message: (e) => `success status ${e.status} removed`,
  given: {
    operation: [
      { responses: { 200: { description: "d" }, 201: { description: "d" } } },
      { responses: { 201: { description: "d" } } },
    ],
  },
};
