import { list, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-extensible-enum-value-removed",
  level: "error",
  doc: "A value callers send no longer lists some `x-extensible-enum` values: sending them may be refused.",
  on: "extensible-enum",
  when: (e) => request(e) && e.change === "values-removed",
  message: (e) => `x-extensible-enum no longer lists ${list(e.values)}`,
  given: {
    request: [
      { type: "string", "x-extensible-enum": ["a", "b"] },
      { type: "string", "x-extensible-enum": ["a"] },
    ],
  },
};
