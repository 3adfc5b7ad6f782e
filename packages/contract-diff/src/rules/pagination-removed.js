/** @type {import("./rule.js").Rule} */
export default {
  id: "pagination-removed",
  level: "error",
  doc: "`x-pagination` removed from a list: callers iterate differently.",
  on: "pagination",
  when: (e) => e.change === "unset",
  message: (e) => `x-pagination ${JSON.stringify(e.before ?? null)} -> ${JSON.stringify(e.after ?? null)}`,
  given: {
    operation: [
      { "x-pagination": { items: "things" }, responses: { 200: { description: "ok" } } },
      { responses: { 200: { description: "ok" } } },
    ],
  },
};
