import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-type-generalized",
  level: "info",
  doc: "A value callers send accepts more types (integer -> number, a type added to a list; in a parameter sent as text, number -> string, or one value -> an exploded form list).",
  on: "type",
  when: (e) => request(e) && e.change === "widened",
  message: (e) => `type ${e.before} -> ${e.after}`,
  // A query parameter travels as text: `?q=5` is a string too.
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "number" } },
      { name: "q", in: "query", schema: { type: "string" } },
    ],
  },
};
