import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-lower-bound-raised",
  level: "error",
  doc: "A lower bound on what callers send was raised.",
  on: "bound",
  when: (e) => request(e) && e.bound === "min" && e.change === "increased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "integer", minimum: 1 },
      { type: "integer", minimum: 5 },
    ],
  },
};
