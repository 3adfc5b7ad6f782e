import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-extensible-enum-value-added",
  level: "info",
  doc: "A value readers receive lists more `x-extensible-enum` values (readers of an extensible enum already handle unknown ones).",
  on: "extensible-enum",
  when: (e) => response(e) && e.change === "values-added",
  message: (e) => `x-extensible-enum lists ${list(e.values)}`,
  given: {
    response: [
      { type: "string", "x-extensible-enum": ["a"] },
      { type: "string", "x-extensible-enum": ["a", "b"] },
    ],
  },
};
