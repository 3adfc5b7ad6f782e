import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-enum-removed",
  level: "warning",
  doc: "A value readers receive is no longer limited to an enum: exhaustive readers need a default branch.",
  on: "enum",
  when: (e) => response(e) && e.change === "unset",
  message: (e) => `no longer limited to ${list(e.values)}`,
  given: { response: [{ type: "string", enum: ["a"] }, { type: "string" }] },
};
