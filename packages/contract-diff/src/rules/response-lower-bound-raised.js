import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-lower-bound-raised",
  level: "info",
  doc: "A lower bound on what readers receive was raised.",
  on: "bound",
  when: (e) => response(e) && e.bound === "min" && e.change === "increased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "integer", minimum: 1 },
      { type: "integer", minimum: 5 },
    ],
  },
};
