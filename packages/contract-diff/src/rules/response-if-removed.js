import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-if-removed",
  level: "error",
  doc: "What readers receive lost its `if` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "if" && e.change === "unset",
  message: () => "if removed",
  given: {
    response: [
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
