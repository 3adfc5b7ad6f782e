import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-contains-added",
  level: "info",
  doc: "What readers receive gained a `contains` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "contains" && e.change === "set",
  message: () => "contains added",
  given: {
    response: [
      { type: "array", items: { type: "string" } },
      { type: "array", items: { type: "string" }, contains: { const: "a" } },
    ],
  },
};
