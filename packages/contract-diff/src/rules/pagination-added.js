/** @type {import("./rule.js").Rule} */
export default {
  id: "pagination-added",
  level: "error",
  doc: "`x-pagination` added to an operation that returned everything: callers iterate differently.",
  on: "pagination",
  when: (e) => e.change === "set",
  message: (e) => `x-pagination ${JSON.stringify(e.before ?? null)} -> ${JSON.stringify(e.after ?? null)}`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      { "x-pagination": { items: "things" }, responses: { 200: { description: "ok" } } },
    ],
  },
};
