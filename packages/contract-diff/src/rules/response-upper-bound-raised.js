import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-upper-bound-raised",
  level: "error",
  doc: "An upper bound on what readers receive was raised: values larger than readers were promised may come.",
  on: "bound",
  when: (e) => response(e) && e.bound === "max" && e.change === "increased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "integer", maximum: 5 },
      { type: "integer", maximum: 9 },
    ],
  },
};
