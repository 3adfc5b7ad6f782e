import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-then-removed",
  level: "error",
  doc: "What readers receive lost its `then` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "then" && e.change === "unset",
  message: () => "then removed",
  given: {
    response: [
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
        then: { required: ["b"] },
      },
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
    ],
  },
};
