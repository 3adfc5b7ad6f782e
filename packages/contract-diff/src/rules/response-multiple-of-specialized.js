import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-multiple-of-specialized",
  level: "info",
  doc: "What readers receive gained a multipleOf or a stricter one.",
  on: "multiple-of",
  when: (e) => response(e) && ["set", "narrowed"].includes(String(e.change)),
  message: (e) => `multipleOf ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "integer", multipleOf: 2 },
      { type: "integer", multipleOf: 4 },
    ],
  },
};
