import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-dependent-schemas-removed",
  level: "error",
  doc: "What readers receive lost a `dependentSchemas` entry.",
  on: "keyed-subschema",
  when: (e) => response(e) && e.keyword === "dependentSchemas" && e.change === "removed",
  message: (e) => `dependentSchemas ${e.name} removed`,
  given: { response: [{ type: "object", dependentSchemas: { a: { required: ["b"] } } }, { type: "object" }] },
};
