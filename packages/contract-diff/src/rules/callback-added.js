/** @type {import("./rule.js").Rule} */
export default {
  id: "callback-added",
  level: "info",
  doc: "An operation gained a callback.",
  on: "callback",
  when: (e) => e.change === "added",
  message: (e) => `callback ${e.name} added`,
  given: {
    operation: [
      { responses: { 200: { description: "ok" } } },
      {
        callbacks: {
          done: { "{$request.body#/url}": { post: { responses: { 200: { description: "ok" } } } } },
        },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
