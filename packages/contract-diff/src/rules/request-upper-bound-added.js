import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-upper-bound-added",
  level: "error",
  doc: "A value callers send gained an upper bound (maximum, maxLength, maxItems, maxProperties, maxContains).",
  on: "bound",
  when: (e) => request(e) && e.bound === "max" && e.change === "set",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { request: [{ type: "string" }, { type: "string", maxLength: 5 }] },
};
