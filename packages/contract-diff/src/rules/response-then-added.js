import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-then-added",
  level: "info",
  doc: "What readers receive gained a `then` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "then" && e.change === "set",
  message: () => "then added",
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
        then: { required: ["b"] },
      },
    ],
  },
};
