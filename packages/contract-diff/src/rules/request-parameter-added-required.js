/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-added-required",
  level: "error",
  doc: "A required parameter was added: callers that do not send it are refused.",
  on: "parameter",
  when: (e) => e.change === "added" && e.required,
  message: (e) => `required ${e.in} parameter ${e.name} added`,
  given: { parameter: [undefined, { name: "q", in: "query", schema: { type: "string" }, required: true }] },
};
