/** @type {import("./rule.js").Rule} */
export default {
  id: "response-error-status-removed",
  level: "warning",
  doc: "An error status (or `default`) is no longer documented: code that handles its typed error loses it. (The peer reports this as info; we warn because our error model is typed per status.)",
  on: "response",
  when: (e) => e.change === "removed" && !e.success,
  message: (e) => `status ${e.status} no longer documented`,
  given: {
    operation: [
      { responses: { 200: { description: "d" }, 409: { description: "d" } } },
      { responses: { 200: { description: "d" } } },
    ],
  },
};
