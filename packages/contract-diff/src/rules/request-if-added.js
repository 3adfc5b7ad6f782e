import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-if-added",
  level: "error",
  doc: "What callers send gained a `if` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "if" && e.change === "set",
  message: () => "if added",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
    ],
  },
};
