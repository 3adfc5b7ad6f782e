/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-removed",
  level: "error",
  doc: "The request body was removed: callers that send one may be refused.",
  on: "request-body",
  when: (e) => e.change === "removed",
  message: () => "request body removed",
  given: {
    operation: [
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
      { summary: "s", responses: { 200: { description: "ok" } } },
    ],
  },
};
