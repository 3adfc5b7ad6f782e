import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-contains-added",
  level: "error",
  doc: "What callers send gained a `contains` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "contains" && e.change === "set",
  message: () => "contains added",
  given: {
    request: [
      { type: "array", items: { type: "string" } },
      { type: "array", items: { type: "string" }, contains: { const: "a" } },
    ],
  },
};
