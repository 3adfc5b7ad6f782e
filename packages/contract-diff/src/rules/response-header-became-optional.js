/** @type {import("./rule.js").Rule} */
export default {
  id: "response-header-became-optional",
  level: "error",
  doc: "A response header is no longer always sent.",
  on: "response-header-required",
  when: (e) => e.change === "unset",
  message: () => "response header became optional",
  given: {
    operation: [
      {
        responses: {
          200: { description: "ok", headers: { "X-Rate": { required: true, schema: { type: "integer" } } } },
        },
      },
      { responses: { 200: { description: "ok", headers: { "X-Rate": { schema: { type: "integer" } } } } } },
    ],
  },
};
