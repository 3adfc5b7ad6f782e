import { deprecation, unreadableSunset } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-sunset-changed",
  level: "info",
  doc: "A deprecated parameter's sunset date was set, or moved while staying at least the minimum deprecation period ahead.",
  on: "parameter-sunset",
  when: (e, policy) =>
    (e.change === "set" && deprecation({ sunset: e.after }, policy) !== "invalid") ||
    (e.change === "changed" &&
      deprecation({ sunset: e.after }, policy) !== "invalid" &&
      !unreadableSunset(e.before) &&
      !(String(e.after) < String(e.before) && deprecation({ sunset: e.after }, policy) === "too-soon")),
  message: (e) => `sunset ${e.before ? `moved from ${e.before} to` : "set to"} ${e.after}`,
  given: {
    parameter: [
      { name: "q", in: "query", deprecated: true, schema: { type: "string" }, "x-sunset": "2999-01-01" },
      { name: "q", in: "query", deprecated: true, schema: { type: "string" }, "x-sunset": "2999-06-01" },
    ],
  },
};
