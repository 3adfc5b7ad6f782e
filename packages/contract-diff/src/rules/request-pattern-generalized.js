import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-generalized",
  level: "info",
  doc: "The pattern on what callers send accepts everything it accepted before (checked on strings made from the old pattern).",
  on: "pattern",
  when: (e) => request(e) && e.change === "generalized",
  message: (e) => `pattern ${e.before} -> ${e.after} (more general)`,
  given: {
    request: [
      { type: "string", pattern: "^[a-z]+$" },
      { type: "string", pattern: "^[a-zA-Z]+$" },
    ],
  },
};
