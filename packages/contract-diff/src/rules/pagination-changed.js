/** @type {import("./rule.js").Rule} */
export default {
  id: "pagination-changed",
  level: "error",
  doc: "`x-pagination` changed (items field or cursors renamed): callers iterate differently.",
  on: "pagination",
  when: (e) => e.change === "changed",
  message: (e) => `x-pagination ${JSON.stringify(e.before ?? null)} -> ${JSON.stringify(e.after ?? null)}`,
  given: {
    operation: [
      { "x-pagination": { items: "things" }, responses: { 200: { description: "ok" } } },
      { "x-pagination": { items: "items" }, responses: { 200: { description: "ok" } } },
    ],
  },
};
