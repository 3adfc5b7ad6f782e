import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-items-removed",
  level: "error",
  doc: "What readers receive lost its `items` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "items" && e.change === "unset",
  message: () => "items removed",
  given: { response: [{ type: "array", items: { type: "string" } }, { type: "array" }] },
};
