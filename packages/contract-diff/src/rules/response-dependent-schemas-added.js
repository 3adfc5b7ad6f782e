import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-dependent-schemas-added",
  level: "info",
  doc: "What readers receive gained a `dependentSchemas` entry.",
  on: "keyed-subschema",
  when: (e) => response(e) && e.keyword === "dependentSchemas" && e.change === "added",
  message: (e) => `dependentSchemas ${e.name} added`,
  given: { response: [{ type: "object" }, { type: "object", dependentSchemas: { a: { required: ["b"] } } }] },
};
