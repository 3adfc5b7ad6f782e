import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-upper-bound-removed",
  level: "error",
  doc: "An upper bound on what readers receive was removed.",
  on: "bound",
  when: (e) => response(e) && e.bound === "max" && e.change === "unset",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { response: [{ type: "string", maxLength: 5 }, { type: "string" }] },
};
