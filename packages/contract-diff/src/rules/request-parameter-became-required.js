/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-became-required",
  level: "error",
  doc: "A parameter became required.",
  on: "parameter-required",
  when: (e) => e.change === "set",
  message: () => "parameter became required",
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "string" } },
      { name: "q", in: "query", schema: { type: "string" }, required: true },
    ],
  },
};
