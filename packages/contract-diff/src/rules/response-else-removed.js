import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-else-removed",
  level: "error",
  doc: "What readers receive lost its `else` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "else" && e.change === "unset",
  message: () => "else removed",
  given: {
    response: [
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
        else: { required: ["b"] },
      },
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
    ],
  },
};
