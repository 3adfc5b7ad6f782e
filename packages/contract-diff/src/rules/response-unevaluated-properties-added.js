import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unevaluated-properties-added",
  level: "info",
  doc: "What readers receive gained a `unevaluatedProperties` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "unevaluatedProperties" && e.change === "set",
  message: () => "unevaluatedProperties added",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false },
    ],
  },
};
