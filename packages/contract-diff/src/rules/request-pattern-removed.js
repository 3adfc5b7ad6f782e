import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-removed",
  level: "info",
  doc: "A string callers send no longer has to match a pattern.",
  on: "pattern",
  when: (e) => request(e) && e.change === "unset",
  message: (e) => `pattern ${e.before} removed`,
  given: { request: [{ type: "string", pattern: "^[a-z]+$" }, { type: "string" }] },
};
