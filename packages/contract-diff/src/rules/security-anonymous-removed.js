/** @type {import("./rule.js").Rule} */
export default {
  id: "security-anonymous-removed",
  level: "error",
  doc: "Anonymous access (`{}` among the requirements) was removed: callers without credentials are refused.",
  on: "security",
  when: (e) => e.change === "removed" && e.name === "anonymous",
  message: () => "anonymous access removed",
  given: {
    operation: [
      { security: [{}, { key: [] }], responses: { 200: { description: "ok" } } },
      { security: [{ key: [] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
