import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-type-specialized",
  level: "info",
  doc: "A value readers receive is of fewer types than before.",
  on: "type",
  when: (e) => response(e) && e.change === "narrowed",
  message: (e) => `type ${e.before} -> ${e.after}`,
  given: { response: [{ type: "number" }, { type: "integer" }] },
};
