import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-lower-bound-lowered",
  level: "error",
  doc: "A lower bound on what readers receive was lowered: smaller values than promised may come.",
  on: "bound",
  when: (e) => response(e) && e.bound === "min" && e.change === "decreased",
  message: (e) => `${e.keyword} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "array", items: { type: "string" }, minItems: 2 },
      { type: "array", items: { type: "string" }, minItems: 1 },
    ],
  },
};
