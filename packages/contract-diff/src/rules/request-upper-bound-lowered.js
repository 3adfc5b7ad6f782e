import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-upper-bound-lowered",
  level: "error",
  doc: "An upper bound on what callers send was lowered.",
  on: "bound",
  when: (e) => request(e) && e.bound === "max" && e.change === "decreased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "string", maxLength: 9 },
      { type: "string", maxLength: 5 },
    ],
  },
};
