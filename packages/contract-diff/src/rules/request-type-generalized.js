import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-type-generalized",
  level: "info",
  doc: "A value callers send accepts more types (integer -> number, a type added to a list).",
  on: "type",
  when: (e) => request(e) && e.change === "widened",
  message: (e) => `type ${e.before} -> ${e.after}`,
  given: { request: [{ type: "integer" }, { type: "number" }] },
};
