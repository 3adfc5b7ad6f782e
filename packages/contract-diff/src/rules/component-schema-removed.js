/** @type {import("./rule.js").Rule} */
export default {
  id: "component-schema-removed",
  level: "info",
  doc: "A schema was removed from components (what used it is reported where it was used).",
  on: "component-schema",
  when: (e) => e.change === "removed",
  message: (e) => `schema ${e.name} removed from components`,
  given: { document: [{ components: { schemas: { Old: { type: "string" } } } }, {}] },
};
