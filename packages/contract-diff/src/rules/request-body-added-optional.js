/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-added-optional",
  level: "info",
  doc: "An optional request body was added.",
  on: "request-body",
  when: (e) => e.change === "added" && !e.required,
  message: () => "optional request body added",
  given: {
    operation: [
      { summary: "s", responses: { 200: { description: "ok" } } },
      {
        requestBody: { required: false, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
