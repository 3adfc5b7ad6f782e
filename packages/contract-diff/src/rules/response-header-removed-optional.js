/** @type {import("./rule.js").Rule} */
export default {
  id: "response-header-removed-optional",
  level: "warning",
  doc: "An optional response header was removed.",
  on: "response-header",
  when: (e) => e.change === "removed" && !e.required,
  message: () => "optional response header removed",
  given: {
    operation: [
      { responses: { 200: { description: "ok", headers: { "X-Rate": { schema: { type: "integer" } } } } } },
      { responses: { 200: { description: "ok", headers: {} } } },
    ],
  },
};
