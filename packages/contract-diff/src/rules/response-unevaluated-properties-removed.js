import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unevaluated-properties-removed",
  level: "error",
  doc: "What readers receive lost its `unevaluatedProperties` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "unevaluatedProperties" && e.change === "unset",
  message: () => "unevaluatedProperties removed",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
