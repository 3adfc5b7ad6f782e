/** @type {import("./rule.js").Rule} */
export default {
  id: "webhook-added",
  level: "info",
  doc: "A webhook was added.",
  on: "webhook",
  when: (e) => e.change === "added",
  message: () => "webhook added",
  given: { document: [{}, { webhooks: { hook: { post: { responses: { 200: { description: "ok" } } } } } }] },
};
