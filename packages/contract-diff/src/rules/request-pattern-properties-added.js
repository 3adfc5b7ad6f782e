import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-properties-added",
  level: "error",
  doc: "What callers send gained a `patternProperties` entry.",
  on: "keyed-subschema",
  when: (e) => request(e) && e.keyword === "patternProperties" && e.change === "added",
  message: (e) => `patternProperties ${e.name} added`,
  given: {
    request: [{ type: "object" }, { type: "object", patternProperties: { "^x-": { type: "string" } } }],
  },
};
