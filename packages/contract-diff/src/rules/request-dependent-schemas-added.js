import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-dependent-schemas-added",
  level: "error",
  doc: "What callers send gained a `dependentSchemas` entry.",
  on: "keyed-subschema",
  when: (e) => request(e) && e.keyword === "dependentSchemas" && e.change === "added",
  message: (e) => `dependentSchemas ${e.name} added`,
  given: { request: [{ type: "object" }, { type: "object", dependentSchemas: { a: { required: ["b"] } } }] },
};
