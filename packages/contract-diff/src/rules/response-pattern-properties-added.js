import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-pattern-properties-added",
  level: "info",
  doc: "What readers receive gained a `patternProperties` entry.",
  on: "keyed-subschema",
  when: (e) => response(e) && e.keyword === "patternProperties" && e.change === "added",
  message: (e) => `patternProperties ${e.name} added`,
  given: {
    response: [{ type: "object" }, { type: "object", patternProperties: { "^x-": { type: "string" } } }],
  },
};
