/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-sunset-removed",
  level: "error",
  doc: "A deprecated parameter lost its `x-sunset` date: callers planning around it lose the date.",
  on: "parameter-sunset",
  when: (e) => e.change === "unset",
  message: (e) => `x-sunset ${e.before} removed from a deprecated parameter`,
  given: {
    parameter: [
      { name: "q", in: "query", deprecated: true, schema: { type: "string" }, "x-sunset": "2999-01-01" },
      { name: "q", in: "query", deprecated: true, schema: { type: "string" } },
    ],
  },
};
