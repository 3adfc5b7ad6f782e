/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-reactivated",
  level: "info",
  doc: "A deprecated parameter is no longer deprecated.",
  on: "parameter-deprecated",
  when: (e) => e.change === "unset",
  message: () => "parameter no longer deprecated",
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "string" }, deprecated: true },
      { name: "q", in: "query", schema: { type: "string" } },
    ],
  },
};
