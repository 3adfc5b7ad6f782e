import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-multiple-of-removed",
  level: "error",
  doc: "What readers receive is no longer a multiple of what was promised.",
  on: "multiple-of",
  when: (e) => response(e) && e.change === "unset",
  message: (e) => `multipleOf ${e.before} removed`,
  given: { response: [{ type: "integer", multipleOf: 5 }, { type: "integer" }] },
};
