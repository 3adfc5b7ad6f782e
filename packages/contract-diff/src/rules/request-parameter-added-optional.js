/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-added-optional",
  level: "info",
  doc: "An optional parameter was added.",
  on: "parameter",
  when: (e) => e.change === "added" && !e.required,
  message: (e) => `optional ${e.in} parameter ${e.name} added`,
  given: { parameter: [undefined, { name: "q", in: "query", schema: { type: "string" } }] },
};
