/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-removed",
  level: "error",
  doc: "A deprecated operation lost its `x-sunset` date: callers planning around it lose the date.",
  on: "operation-sunset",
  when: (e) => e.change === "unset",
  message: (e) => `x-sunset ${e.before} removed from a deprecated operation`,
  given: {
    operation: [
      { deprecated: true, "x-sunset": "2999-01-01", responses: { 200: { description: "ok" } } },
      { deprecated: true, responses: { 200: { description: "ok" } } },
    ],
  },
};
