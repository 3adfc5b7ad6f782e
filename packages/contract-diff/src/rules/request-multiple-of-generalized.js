import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-multiple-of-generalized",
  level: "info",
  doc: "The multipleOf on what callers send was removed or divides the old one.",
  on: "multiple-of",
  when: (e) => request(e) && ["unset", "widened"].includes(String(e.change)),
  message: (e) => `multipleOf ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "integer", multipleOf: 4 },
      { type: "integer", multipleOf: 2 },
    ],
  },
};
