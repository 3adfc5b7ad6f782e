import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-additional-properties-removed",
  level: "info",
  doc: "What callers send lost its `additionalProperties` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "additionalProperties" && e.change === "unset",
  message: () => "additionalProperties removed",
  given: { request: [{ type: "object", additionalProperties: { type: "string" } }, { type: "object" }] },
};
