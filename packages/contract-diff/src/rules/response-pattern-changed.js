import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-changed",
  level: "warning",
  doc: "The pattern on what readers receive changed and admits strings it did not.",
  on: "pattern",
  when: (e) => response(e) && ["changed", "generalized"].includes(String(e.change)),
  message: (e) => `pattern ${e.before} -> ${e.after}`,
  given: {
    response: [
      { type: "string", pattern: "^[a-z]+$" },
      { type: "string", pattern: "^[a-z0-9]+$" },
    ],
  },
};
