import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-const-added",
  level: "info",
  doc: "A value readers receive is now one constant.",
  on: "const",
  when: (e) => response(e) && e.change === "set",
  message: (e) => `now always ${show(e.after)}`,
  given: { response: [{ type: "string" }, { type: "string", const: "a" }] },
};
