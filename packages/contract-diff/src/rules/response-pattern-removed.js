import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-removed",
  level: "error",
  doc: "A string readers receive no longer matches the pattern it promised.",
  on: "pattern",
  when: (e) => response(e) && e.change === "unset",
  message: (e) => `pattern ${e.before} removed`,
  given: { response: [{ type: "string", pattern: "^[a-z]+$" }, { type: "string" }] },
};
