/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-became-optional",
  level: "info",
  doc: "The request body became optional.",
  on: "request-body-required",
  when: (e) => e.change === "unset",
  message: () => "request body became optional",
  given: {
    operation: [
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
      {
        requestBody: { required: false, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
