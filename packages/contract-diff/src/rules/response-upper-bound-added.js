import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-upper-bound-added",
  level: "info",
  doc: "What readers receive gained an upper bound.",
  on: "bound",
  when: (e) => response(e) && e.bound === "max" && e.change === "set",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { response: [{ type: "integer" }, { type: "integer", maximum: 5 }] },
};
