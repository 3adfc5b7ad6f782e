import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-upper-bound-raised",
  level: "info",
  doc: "An upper bound on what callers send was raised.",
  on: "bound",
  when: (e) => request(e) && e.bound === "max" && e.change === "increased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "string", maxLength: 5 },
      { type: "string", maxLength: 9 },
    ],
  },
};
