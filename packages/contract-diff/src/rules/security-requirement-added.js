/** @type {import("./rule.js").Rule} */
export default {
  id: "security-requirement-added",
  level: "error",
  doc: "A security requirement was added (a scheme callers must now satisfy): callers without it are refused.",
  on: "security",
  when: (e) => e.change === "added" && e.name !== "anonymous",
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
