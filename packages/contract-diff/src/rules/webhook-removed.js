/** @type {import("./rule.js").Rule} */
export default {
  id: "webhook-removed",
  level: "error",
  doc: "A webhook was removed: receivers stop getting its calls.",
  on: "webhook",
  when: (e) => e.change === "removed",
  message: () => "webhook removed",
  given: { document: [{ webhooks: { hook: { post: { responses: { 200: { description: "ok" } } } } } }, {}] },
};
