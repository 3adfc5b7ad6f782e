import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-specialized",
  level: "info",
  doc: "The pattern on what readers receive became narrower.",
  on: "pattern",
  when: (e) => response(e) && e.change === "specialized",
  message: (e) => `pattern ${e.before} -> ${e.after} (narrower)`,
  given: {
    response: [
      { type: "string", pattern: "^[a-zA-Z]+$" },
      { type: "string", pattern: "^[a-z]+$" },
    ],
  },
};
