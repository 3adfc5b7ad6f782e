/** @type {import("./rule.js").Rule} */
export default {
  id: "callback-removed",
  level: "error",
  doc: "An operation lost a callback: receivers stop getting its calls.",
  on: "callback",
  when: (e) => e.change === "removed",
  message: (e) => `callback ${e.name} removed`,
  given: {
    operation: [
      {
        callbacks: {
          done: { "{$request.body#/url}": { post: { responses: { 200: { description: "ok" } } } } },
        },
        responses: { 200: { description: "ok" } },
      },
      { responses: { 200: { description: "ok" } } },
    ],
  },
};
