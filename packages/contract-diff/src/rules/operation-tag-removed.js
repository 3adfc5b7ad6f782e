/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-tag-removed",
  level: "info",
  doc: "An operation lost a tag.",
  on: "operation-tag",
  when: (e) => e.change === "removed",
  message: (e) => `tag ${e.name} removed`,
  given: {
    operation: [
      { tags: ["t"], responses: { 200: { description: "ok" } } },
      { responses: { 200: { description: "ok" } } },
    ],
  },
};
