import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-multiple-of-added",
  level: "error",
  doc: "A number callers send must now be a multiple of something.",
  on: "multiple-of",
  when: (e) => request(e) && e.change === "set",
  message: (e) => `multipleOf ${e.after} added`,
  given: { request: [{ type: "integer" }, { type: "integer", multipleOf: 5 }] },
};
