import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-if-removed",
  level: "info",
  doc: "What callers send lost its `if` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "if" && e.change === "unset",
  message: () => "if removed",
  given: {
    request: [
      {
        type: "object",
        properties: { a: { type: "string" } },
        if: { type: "object", properties: { a: { const: "x" } }, required: ["a"] },
      },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
