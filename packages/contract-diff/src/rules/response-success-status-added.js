/** @type {import("./rule.js").Rule} */
export default {
  id: "response-success-status-added",
  level: "info",
  doc: "A success status is documented beside the others.",
  on: "response",
  when: (e) => e.change === "added" && e.success,
  message: (e) => `success status ${e.status} added`,
  given: {
    operation: [
      { responses: { 200: { description: "d" } } },
      { responses: { 200: { description: "d" }, 202: { description: "d" } } },
    ],
  },
};
