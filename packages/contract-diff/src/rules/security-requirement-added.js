/** @type {import("./rule.js").Rule} */
export default {
  id: "security-requirement-added",
  level: "error",
  doc: "A security requirement was added that callers must now satisfy (no earlier alternative is left as it was): callers without it are refused.",
  on: "security",
  when: (e) => e.change === "added" && e.name !== "anonymous" && !e.alternative,
  message: (e) => `security requirement ${e.name} added`,
  given: {
    document: [
      { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "k" } } } },
      { components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "k" } } } },
    ],
    operation: [
      { security: [], responses: { 200: { description: "ok" } } },
      { security: [{ key: [] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
