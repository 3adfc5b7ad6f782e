import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-items-added",
  level: "info",
  doc: "What readers receive gained a `items` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "items" && e.change === "set",
  message: () => "items added",
  given: { response: [{ type: "array" }, { type: "array", items: { type: "string" } }] },
};
