/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-became-optional",
  level: "info",
  doc: "A parameter became optional.",
  on: "parameter-required",
  when: (e) => e.change === "unset",
  message: () => "parameter became optional",
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "string" }, required: true },
      { name: "q", in: "query", schema: { type: "string" } },
    ],
  },
};
