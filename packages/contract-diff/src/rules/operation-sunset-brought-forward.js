import { deprecation, unreadableSunset } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-brought-forward",
  level: "error",
  doc: "A deprecated operation's sunset date moved earlier, to less than the minimum deprecation period from now (or became, or was set to, something that is not a date, or was not one in the base: whether it moved earlier cannot be told).",
  on: "operation-sunset",
  when: (e, policy) =>
    (e.change === "set" && deprecation({ sunset: e.after }, policy) === "invalid") ||
    (e.change === "changed" &&
      (deprecation({ sunset: e.after }, policy) === "invalid" ||
        unreadableSunset(e.before) ||
        (String(e.after) < String(e.before) && deprecation({ sunset: e.after }, policy) === "too-soon"))),
  message: (e, policy) =>
    deprecation({ sunset: e.after }, policy) === "invalid"
      ? `x-sunset ${JSON.stringify(e.after)} is not a date (YYYY-MM-DD)${e.before ? `, was ${e.before}` : ""}`
      : unreadableSunset(e.before)
        ? `x-sunset ${JSON.stringify(e.before)} of the base is not a date (YYYY-MM-DD): whether ${e.after} moved it earlier cannot be told`
        : `sunset moved from ${e.before} to ${e.after}`,
  // The base's sunset cannot be read and the change makes it a date (moved earlier: test/agreement.test.ts).
  given: {
    operation: [
      { deprecated: true, "x-sunset": "soon", responses: { 200: { description: "ok" } } },
      { deprecated: true, "x-sunset": "2999-06-01", responses: { 200: { description: "ok" } } },
    ],
  },
};
