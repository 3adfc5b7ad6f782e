import { list, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-extensible-enum-value-added",
  level: "info",
  doc: "A value callers send lists more `x-extensible-enum` values.",
  on: "extensible-enum",
  when: (e) => request(e) && e.change === "values-added",
  message: (e) => `x-extensible-enum lists ${list(e.values)}`,
  given: {
    request: [
      { type: "string", "x-extensible-enum": ["a"] },
      { type: "string", "x-extensible-enum": ["a", "b"] },
    ],
  },
};
