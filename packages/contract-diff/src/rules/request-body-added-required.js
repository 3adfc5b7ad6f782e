/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-added-required",
  level: "error",
  doc: "A required request body was added to an operation that took none.",
  on: "request-body",
  when: (e) => e.change === "added" && e.required,
  message: () => "required request body added",
  given: {
    operation: [
      { summary: "s", responses: { 200: { description: "ok" } } },
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
