import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-names-removed",
  level: "error",
  doc: "What readers receive lost its `propertyNames` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "propertyNames" && e.change === "unset",
  message: () => "propertyNames removed",
  given: { response: [{ type: "object", propertyNames: { pattern: "^[a-z]+$" } }, { type: "object" }] },
};
