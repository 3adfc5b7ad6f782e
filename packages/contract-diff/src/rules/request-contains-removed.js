import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-contains-removed",
  level: "info",
  doc: "What callers send lost its `contains` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "contains" && e.change === "unset",
  message: () => "contains removed",
  given: {
    request: [
      { type: "array", items: { type: "string" }, contains: { const: "a" } },
      { type: "array", items: { type: "string" } },
    ],
  },
};
