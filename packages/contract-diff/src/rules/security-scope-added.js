/** @type {import("./rule.js").Rule} */
export default {
  id: "security-scope-added",
  level: "error",
  doc: "A scope was added to a security requirement: tokens without it are refused.",
  on: "security-scope",
  when: (e) => e.change === "added",
  message: (e) => `scope ${e.scope} added to ${e.scheme}`,
  given: {
    operation: [
      { security: [{ oauth: ["read"] }], responses: { 200: { description: "ok" } } },
      { security: [{ oauth: ["read", "write"] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
