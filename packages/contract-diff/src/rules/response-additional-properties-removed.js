import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-additional-properties-removed",
  level: "error",
  doc: "What readers receive lost its `additionalProperties` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "additionalProperties" && e.change === "unset",
  message: () => "additionalProperties removed",
  given: { response: [{ type: "object", additionalProperties: { type: "string" } }, { type: "object" }] },
};
