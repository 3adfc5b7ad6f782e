/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-tag-added",
  level: "info",
  doc: "An operation gained a tag.",
  on: "operation-tag",
  when: (e) => e.change === "added",
  message: (e) => `tag ${e.name} added`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { tags: ["t"], responses: { 200: { description: "ok" } } },
    ],
  },
};
