/** @type {import("./rule.js").Rule} */
export default {
  id: "security-alternative-added",
  level: "info",
  doc: "A security requirement was added beside the ones callers already satisfy (requirements are alternatives): another way in, nothing more to send. (As the peer.)",
  on: "security",
  when: (e) => e.change === "added" && e.name !== "anonymous" && e.alternative === true,
  message: (e) => `security requirement ${e.name} added as an alternative`,
  given: {
    operation: [
      { security: [{ key: [] }], responses: { 200: { description: "ok" } } },
      { security: [{ key: [] }, { oauth: ["read"] }], responses: { 200: { description: "ok" } } },
    ],
  },
};
