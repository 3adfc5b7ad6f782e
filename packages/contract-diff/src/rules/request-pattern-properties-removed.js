import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-properties-removed",
  level: "info",
  doc: "What callers send lost a `patternProperties` entry.",
  on: "keyed-subschema",
  when: (e) => request(e) && e.keyword === "patternProperties" && e.change === "removed",
  message: (e) => `patternProperties ${e.name} removed`,
  given: {
    request: [{ type: "object", patternProperties: { "^x-": { type: "string" } } }, { type: "object" }],
  },
};
