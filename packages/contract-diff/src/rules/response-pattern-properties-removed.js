import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-properties-removed",
  level: "error",
  doc: "What readers receive lost a `patternProperties` entry.",
  on: "keyed-subschema",
  when: (e) => response(e) && e.keyword === "patternProperties" && e.change === "removed",
  message: (e) => `patternProperties ${e.name} removed`,
  given: {
    response: [{ type: "object", patternProperties: { "^x-": { type: "string" } } }, { type: "object" }],
  },
};
