import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-then-added",
  level: "error",
  doc: "What callers send gained a `then` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "then" && e.change === "set",
  message: () => "then added",
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
        then: { required: ["b"] },
      },
    ],
  },
};
