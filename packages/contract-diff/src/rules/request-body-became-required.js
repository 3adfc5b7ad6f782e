/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-became-required",
  level: "error",
  doc: "The request body became required.",
  on: "request-body-required",
  when: (e) => e.change === "set",
  message: () => "request body became required",
  given: {
    operation: [
      {
        requestBody: { required: false, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
