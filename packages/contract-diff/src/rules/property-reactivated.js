/** @type {import("./rule.js").Rule} */
export default {
  id: "property-reactivated",
  level: "info",
  doc: "A deprecated property is no longer deprecated.",
  on: "deprecated",
  when: (e) => e.change === "unset",
  message: () => "no longer deprecated",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string", deprecated: true } } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
