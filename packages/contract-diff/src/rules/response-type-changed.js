import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-type-changed",
  level: "error",
  doc: "A value readers receive changed type (or may now be of a type it never was): readers break.",
  on: "type",
  when: (e) => response(e) && e.change !== "narrowed",
  message: (e) => `type ${e.before} -> ${e.after}`,
  given: { response: [{ type: "integer" }, { type: ["integer", "string"] }] },
};
