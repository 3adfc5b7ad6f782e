import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-extensible-enum-value-removed",
  level: "info",
  doc: "A value readers receive lists fewer `x-extensible-enum` values.",
  on: "extensible-enum",
  when: (e) => response(e) && e.change === "values-removed",
  message: (e) => `x-extensible-enum no longer lists ${list(e.values)}`,
  given: {
    response: [
      { type: "string", "x-extensible-enum": ["a", "b"] },
      { type: "string", "x-extensible-enum": ["a"] },
    ],
  },
};
