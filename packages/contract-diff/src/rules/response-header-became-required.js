/** @type {import("./rule.js").Rule} */
export default {
  id: "response-header-became-required",
  level: "info",
  doc: "A response header is now always sent.",
  on: "response-header-required",
  when: (e) => e.change === "set",
  message: () => "response header became required",
  given: {
    operation: [
      { responses: { 200: { description: "ok", headers: { "X-Rate": { schema: { type: "integer" } } } } } },
      {
        responses: {
          200: { description: "ok", headers: { "X-Rate": { required: true, schema: { type: "integer" } } } },
        },
      },
    ],
  },
};
