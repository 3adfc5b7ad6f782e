import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-format-changed",
  level: "error",
  doc: "A value readers receive lost or changed its format.",
  on: "format",
  when: (e) => response(e) && ["unset", "changed", "widened"].includes(String(e.change)),
  message: (e) => `format ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "string", format: "date-time" },
      { type: "string", format: "date" },
    ],
  },
};
