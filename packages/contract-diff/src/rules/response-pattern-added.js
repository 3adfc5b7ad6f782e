import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-added",
  level: "info",
  doc: "A string readers receive now matches a pattern.",
  on: "pattern",
  when: (e) => response(e) && e.change === "set",
  message: (e) => `pattern ${e.after} added`,
  given: { response: [{ type: "string" }, { type: "string", pattern: "^[a-z]+$" }] },
};
