/** @type {import("./rule.js").Rule} */
export default {
  id: "security-scope-removed",
  level: "info",
  doc: "A scope was removed from a security requirement: fewer scopes are needed.",
  on: "security-scope",
  when: (e) => e.change === "removed",
  message: (e) => `scope ${e.scope} removed from ${e.scheme}`,
  given: {
    operation: [
      { security: [{ oauth: ["read", "write"] }], responses: { 200: { description: "ok" } } },
      { security: [{ oauth: ["read"] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
