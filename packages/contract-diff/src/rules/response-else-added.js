import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-else-added",
  level: "info",
  doc: "What readers receive gained a `else` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "else" && e.change === "set",
  message: () => "else added",
  given: {
    response: [
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
        else: { required: ["b"] },
      },
    ],
  },
};
