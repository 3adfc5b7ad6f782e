/** @type {import("./rule.js").Rule} */
export default {
  id: "security-requirement-removed",
  level: "info",
  doc: "A security requirement was removed: fewer credentials are needed.",
  on: "security",
  when: (e) => e.change === "removed" && e.name !== "anonymous",
  message: (e) => `security requirement ${e.name} removed`,
  given: {
    operation: [
      { security: [{ key: [] }], responses: { 200: { description: "ok" } } },
      { security: [], responses: { 200: { description: "ok" } } },
    ],
  },
};
