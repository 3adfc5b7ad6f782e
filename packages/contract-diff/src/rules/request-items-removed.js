import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-items-removed",
  level: "info",
  doc: "What callers send lost its `items` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "items" && e.change === "unset",
  message: () => "items removed",
  given: { request: [{ type: "array", items: { type: "string" } }, { type: "array" }] },
};
