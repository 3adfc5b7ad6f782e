import { deprecation, unreadableSunset } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-changed",
  level: "info",
  doc: "A deprecated operation's sunset date was set, or moved while staying at least the minimum deprecation period ahead.",
  on: "operation-sunset",
  when: (e, policy) =>
    (e.change === "set" && deprecation({ sunset: e.after }, policy) !== "invalid") ||
    (e.change === "changed" &&
      deprecation({ sunset: e.after }, policy) !== "invalid" &&
      !unreadableSunset(e.before) &&
      !(String(e.after) < String(e.before) && deprecation({ sunset: e.after }, policy) === "too-soon")),
  message: (e) => `sunset ${e.before ? `moved from ${e.before} to` : "set to"} ${e.after}`,
  given: {
    operation: [
      { deprecated: true, "x-sunset": "2999-01-01", responses: { 200: { description: "ok" } } },
      { deprecated: true, "x-sunset": "2999-06-01", responses: { 200: { description: "ok" } } },
    ],
  },
};
