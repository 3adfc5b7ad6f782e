/** @type {import("./rule.js").Rule} */
export default {
  id: "security-scheme-added",
  level: "info",
  doc: "A security scheme was added under components (operations that use it are reported on their own).",
  on: "security-scheme",
  when: (e) => e.change === "added",
  message: (e) => `security scheme ${e.name} added`,
  given: {
    document: [
      {},
      { components: { securitySchemes: { extra: { type: "apiKey", in: "query", name: "k" } } } },
    ],
  },
};
