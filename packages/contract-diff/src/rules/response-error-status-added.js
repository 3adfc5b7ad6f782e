/** @type {import("./rule.js").Rule} */
export default {
  id: "response-error-status-added",
  level: "info",
  doc: "An error status (or `default`) is now documented.",
  on: "response",
  when: (e) => e.change === "added" && !e.success,
  message: (e) => `status ${e.status} now documented`,
  given: {
    operation: [
      { responses: { 200: { description: "d" } } },
      { responses: { 200: { description: "d" }, 409: { description: "d" } } },
    ],
  },
};
