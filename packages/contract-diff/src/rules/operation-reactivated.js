/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-reactivated",
  level: "info",
  doc: "A deprecated operation is no longer deprecated.",
  on: "operation-deprecated",
  when: (e) => e.change === "unset",
  message: () => "operation no longer deprecated",
  given: {
    operation: [
      { deprecated: true, responses: { 200: { description: "ok" } } },
      { responses: { 200: { description: "ok" } } },
    ],
  },
};
