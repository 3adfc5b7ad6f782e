import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-sunset-brought-forward",
  level: "error",
  doc: "A deprecated parameter's sunset date moved earlier, to less than the minimum deprecation period from now (or became, or was set to, something that is not a date).",
  on: "parameter-sunset",
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
    parameter: [
      { name: "q", in: "query", deprecated: true, schema: { type: "string" }, "x-sunset": "2999-01-01" },
      { name: "q", in: "query", deprecated: true, schema: { type: "string" }, "x-sunset": "2001-01-01" },
    ],
  },
};
