import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-format-generalized",
  level: "info",
  doc: "A value callers send lost its format or took a wider one (int32 -> int64).",
  on: "format",
  when: (e) => request(e) && ["unset", "widened"].includes(String(e.change)),
  message: (e) => `format ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "integer", format: "int32" },
      { type: "integer", format: "int64" },
    ],
  },
};
