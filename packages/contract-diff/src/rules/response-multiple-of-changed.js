import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-multiple-of-changed",
  level: "error",
  doc: "The multipleOf on what readers receive changed so that values off the old grid may come.",
  on: "multiple-of",
  when: (e) => response(e) && ["changed", "widened"].includes(String(e.change)),
  message: (e) => `multipleOf ${e.before} -> ${e.after}`,
  given: {
    response: [
      { type: "integer", multipleOf: 4 },
      { type: "integer", multipleOf: 2 },
    ],
  },
};
