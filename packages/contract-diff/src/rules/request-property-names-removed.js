import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-names-removed",
  level: "info",
  doc: "What callers send lost its `propertyNames` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "propertyNames" && e.change === "unset",
  message: () => "propertyNames removed",
  given: { request: [{ type: "object", propertyNames: { pattern: "^[a-z]+$" } }, { type: "object" }] },
};
