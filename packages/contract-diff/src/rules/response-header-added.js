/** @type {import("./rule.js").Rule} */
export default {
  id: "response-header-added",
  level: "info",
  doc: "A response header is documented.",
  on: "response-header",
  when: (e) => e.change === "added",
  message: () => "response header added",
  given: {
    operation: [
      { responses: { 200: { description: "ok", headers: {} } } },
      { responses: { 200: { description: "ok", headers: { "X-Rate": { schema: { type: "integer" } } } } } },
    ],
  },
};
