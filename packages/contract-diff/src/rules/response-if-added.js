import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-if-added",
  level: "info",
  doc: "What readers receive gained a `if` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "if" && e.change === "set",
  message: () => "if added",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
    ],
  },
};
