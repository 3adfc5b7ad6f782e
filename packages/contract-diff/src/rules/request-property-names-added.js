import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-names-added",
  level: "error",
  doc: "What callers send gained a `propertyNames` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "propertyNames" && e.change === "set",
  message: () => "propertyNames added",
  given: { request: [{ type: "object" }, { type: "object", propertyNames: { pattern: "^[a-z]+$" } }] },
};
