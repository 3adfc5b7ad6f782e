import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-format-specialized",
  level: "info",
  doc: "A value readers receive gained a format or a narrower one.",
  on: "format",
  when: (e) => response(e) && ["set", "narrowed"].includes(String(e.change)),
  message: (e) => `format ${show(e.before)} -> ${show(e.after)}`,
  given: { response: [{ type: "string" }, { type: "string", format: "uuid" }] },
};
