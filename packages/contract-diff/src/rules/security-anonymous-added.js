/** @type {import("./rule.js").Rule} */
export default {
  id: "security-anonymous-added",
  level: "info",
  doc: "Anonymous access (`{}`) was added.",
  on: "security",
  when: (e) => e.change === "added" && e.name === "anonymous",
  message: () => "anonymous access added",
  given: {
    operation: [
      { security: [{ key: [] }], responses: { 200: { description: "ok" } } },
      { security: [{}, { key: [] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
