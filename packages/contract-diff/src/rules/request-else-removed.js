import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-else-removed",
  level: "info",
  doc: "What callers send lost its `else` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "else" && e.change === "unset",
  message: () => "else removed",
  given: {
    request: [
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
