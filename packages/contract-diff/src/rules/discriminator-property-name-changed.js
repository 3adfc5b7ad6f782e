/** @type {import("./rule.js").Rule} */
export default {
  id: "discriminator-property-name-changed",
  level: "warning",
  doc: "The discriminator's property name changed: code that dispatches on it must follow. (The peer says info.)",
  on: "discriminator",
  when: (e) => e.change === "property-name-changed",
  message: (e) => `discriminator property ${e.before} -> ${e.after}`,
  given: {
    response: [
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind" } },
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "type" } },
    ],
  },
};
