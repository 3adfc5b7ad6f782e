import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-unevaluated-properties-added",
  level: "error",
  doc: "What callers send gained a `unevaluatedProperties` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "unevaluatedProperties" && e.change === "set",
  message: () => "unevaluatedProperties added",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false },
    ],
  },
};
