import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-sunset-brought-forward",
  level: "error",
  doc: "A deprecated operation's sunset date moved earlier, to less than the minimum deprecation period from now (or became, or was set to, something that is not a date).",
  on: "operation-sunset",
  when: (e, policy) =>
    (e.change === "set" && deprecation({ sunset: e.after }, policy) === "invalid") ||
    (e.change === "changed" &&
      (deprecation({ sunset: e.after }, policy) === "invalid" ||
        (String(e.after) < String(e.before) && deprecation({ sunset: e.after }, policy) === "too-soon"))),
  message: (e, policy) =>
    deprecation({ sunset: e.after }, policy) === "invalid"
      ? `x-sunset ${JSON.stringify(e.after)} is not a date (YYYY-MM-DD)${e.before ? `, was ${e.before}` : ""}`
      : `sunset moved from ${e.before} to ${e.after}`,
  given: {
    operation: [
      { deprecated: true, "x-sunset": "2999-06-01", responses: { 200: { description: "ok" } } },
      { deprecated: true, "x-sunset": "2001-01-01", responses: { 200: { description: "ok" } } },
    ],
  },
};
