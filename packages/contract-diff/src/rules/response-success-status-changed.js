/** @type {import("./rule.js").Rule} */
export default {
  id: "response-success-status-changed",
  level: "error",
  doc: "The one success status became another (200 to 201): readers that check for the old status break. The two answers' bodies are compared as one.",
  on: "response",
  when: (e) => e.change === "success-changed",
  message: (e) => `success status ${e.before} -> ${e.status}`,
  given: {
    operation: [
      { responses: { 200: { description: "d" }, 400: { description: "e" } } },
      { responses: { 201: { description: "d" }, 400: { description: "e" } } },
    ],
  },
};
