import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-lower-bound-added",
  level: "error",
  doc: "A value callers send gained a lower bound (minimum, minLength, minItems, minProperties, minContains).",
  on: "bound",
  when: (e) => request(e) && e.bound === "min" && e.change === "set",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { request: [{ type: "integer" }, { type: "integer", minimum: 1 }] },
};
