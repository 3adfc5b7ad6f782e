import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-else-added",
  level: "error",
  doc: "What callers send gained a `else` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "else" && e.change === "set",
  message: () => "else added",
  given: {
    request: [
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
