import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-then-removed",
  level: "info",
  doc: "What callers send lost its `then` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "then" && e.change === "unset",
  message: () => "then removed",
  given: {
    request: [
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
