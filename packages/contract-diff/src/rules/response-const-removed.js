import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-const-removed",
  level: "error",
  doc: "A value readers receive is no longer one constant.",
  on: "const",
  when: (e) => response(e) && e.change === "unset",
  message: (e) => `no longer always ${show(e.before)}`,
  given: { response: [{ type: "string", const: "a" }, { type: "string" }] },
};
