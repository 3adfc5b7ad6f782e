import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-property-names-added",
  level: "info",
  doc: "What readers receive gained a `propertyNames` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "propertyNames" && e.change === "set",
  message: () => "propertyNames added",
  given: { response: [{ type: "object" }, { type: "object", propertyNames: { pattern: "^[a-z]+$" } }] },
};
