import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-type-changed",
  level: "error",
  doc: "A value callers send changed type (or lost types it accepted): what they send today is refused.",
  on: "type",
  when: (e) => request(e) && e.change !== "widened",
  message: (e) => `type ${e.before} -> ${e.after}`,
  given: { request: [{ type: "integer" }, { type: "string" }] },
};
