import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unevaluated-properties-removed",
  level: "info",
  doc: "What callers send lost its `unevaluatedProperties` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "unevaluatedProperties" && e.change === "unset",
  message: () => "unevaluatedProperties removed",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
