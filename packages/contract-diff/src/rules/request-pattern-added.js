import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-added",
  level: "error",
  doc: "A string callers send must now match a pattern.",
  on: "pattern",
  when: (e) => request(e) && e.change === "set",
  message: (e) => `pattern ${e.after} added`,
  given: { request: [{ type: "string" }, { type: "string", pattern: "^[a-z]+$" }] },
};
