import { show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-serialization-changed",
  level: "error",
  doc: "A parameter's `style`, `explode` or `allowReserved` changed: the same value is written differently on the wire.",
  on: "parameter-serialization",
  when: () => true,
  message: (e) => `${e.field} ${show(e.before)} -> ${show(e.after)}`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "array", items: { type: "string" } } },
      { name: "q", in: "query", schema: { type: "array", items: { type: "string" } }, explode: false },
    ],
  },
};
