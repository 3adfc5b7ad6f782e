/** @type {import("./rule.js").Rule} */
export default {
  id: "security-scheme-changed",
  level: "info",
  doc: "A security scheme was changed under components (operations that use it are reported on their own).",
  on: "security-scheme",
  when: (e) => e.change === "changed",
  message: (e) => `security scheme ${e.name} changed`,
  given: {
    document: [
      { components: { securitySchemes: { extra: { type: "apiKey", in: "query", name: "k" } } } },
      { components: { securitySchemes: { extra: { type: "apiKey", in: "query", name: "x" } } } },
    ],
  },
};
