import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-lower-bound-added",
  level: "info",
  doc: "What readers receive gained a lower bound.",
  on: "bound",
  when: (e) => response(e) && e.bound === "min" && e.change === "set",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { response: [{ type: "integer" }, { type: "integer", minimum: 0 }] },
};
