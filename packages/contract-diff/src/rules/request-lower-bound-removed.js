import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-lower-bound-removed",
  level: "info",
  doc: "A lower bound on what callers send was removed.",
  on: "bound",
  when: (e) => request(e) && e.bound === "min" && e.change === "unset",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: { request: [{ type: "string", minLength: 2 }, { type: "string" }] },
};
