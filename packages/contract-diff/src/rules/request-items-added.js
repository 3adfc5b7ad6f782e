import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-items-added",
  level: "error",
  doc: "What callers send gained a `items` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "items" && e.change === "set",
  message: () => "items added",
  given: { request: [{ type: "array" }, { type: "array", items: { type: "string" } }] },
};
