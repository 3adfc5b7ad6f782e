import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-upper-bound-lowered",
  level: "info",
  doc: "An upper bound on what readers receive was lowered.",
  on: "bound",
  when: (e) => response(e) && e.bound === "max" && e.change === "decreased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "integer", maximum: 9 },
      { type: "integer", maximum: 5 },
    ],
  },
};
