/** @type {import("./rule.js").Rule} */
export default {
  id: "all-of-annotation-changed",
  level: "info",
  doc: "An allOf member that only annotates (description, example) was added or removed.",
  on: "all-of",
  when: (e) => e.annotationOnly,
  message: (e) => `annotation-only allOf member ${e.change}`,
  given: {
    request: [
      { allOf: [{ type: "object", properties: { a: { type: "string" } } }] },
      { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { description: "d" }] },
    ],
  },
};
