/** @type {import("./rule.js").Rule} */
export default {
  id: "response-header-removed-required",
  level: "error",
  doc: "A required response header was removed: readers that rely on it break.",
  on: "response-header",
  when: (e) => e.change === "removed" && e.required,
  message: () => "required response header removed",
  given: {
    operation: [
      {
        responses: {
          200: { description: "ok", headers: { "X-Rate": { required: true, schema: { type: "integer" } } } },
        },
      },
      { responses: { 200: { description: "ok", headers: {} } } },
    ],
  },
};
