import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-format-changed",
  level: "error",
  doc: "A value callers send gained or changed its format (date-time -> date, int64 -> int32).",
  on: "format",
  when: (e) => request(e) && ["set", "changed", "narrowed"].includes(String(e.change)),
  message: (e) => `format ${show(e.before)} -> ${show(e.after)}`,
  given: { request: [{ type: "string" }, { type: "string", format: "email" }] },
};
