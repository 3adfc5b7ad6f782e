import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-additional-properties-added",
  level: "error",
  doc: "What callers send gained a `additionalProperties` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "additionalProperties" && e.change === "set",
  message: () => "additionalProperties added",
  given: { request: [{ type: "object" }, { type: "object", additionalProperties: { type: "string" } }] },
};
