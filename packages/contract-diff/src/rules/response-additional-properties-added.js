import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-additional-properties-added",
  level: "info",
  doc: "What readers receive gained a `additionalProperties` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "additionalProperties" && e.change === "set",
  message: () => "additionalProperties added",
  given: { response: [{ type: "object" }, { type: "object", additionalProperties: { type: "string" } }] },
};
