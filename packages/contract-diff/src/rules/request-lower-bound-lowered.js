import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-lower-bound-lowered",
  level: "info",
  doc: "A lower bound on what callers send was lowered.",
  on: "bound",
  when: (e) => request(e) && e.bound === "min" && e.change === "decreased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "integer", minimum: 5 },
      { type: "integer", minimum: 1 },
    ],
  },
};
