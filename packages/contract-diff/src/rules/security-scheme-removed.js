/** @type {import("./rule.js").Rule} */
export default {
  id: "security-scheme-removed",
  level: "info",
  doc: "A security scheme was removed under components (operations that use it are reported on their own).",
  on: "security-scheme",
  when: (e) => e.change === "removed",
  message: (e) => `security scheme ${e.name} removed`,
  given: {
    document: [
      { components: { securitySchemes: { extra: { type: "apiKey", in: "query", name: "k" } } } },
      {},
    ],
  },
};
