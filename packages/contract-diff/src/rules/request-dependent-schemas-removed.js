import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-dependent-schemas-removed",
  level: "info",
  doc: "What callers send lost a `dependentSchemas` entry.",
  on: "keyed-subschema",
  when: (e) => request(e) && e.keyword === "dependentSchemas" && e.change === "removed",
  message: (e) => `dependentSchemas ${e.name} removed`,
  given: { request: [{ type: "object", dependentSchemas: { a: { required: ["b"] } } }, { type: "object" }] },
};
