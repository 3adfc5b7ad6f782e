import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-contains-removed",
  level: "error",
  doc: "What readers receive lost its `contains` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "contains" && e.change === "unset",
  message: () => "contains removed",
  given: {
    response: [
      { type: "array", items: { type: "string" }, contains: { const: "a" } },
      { type: "array", items: { type: "string" } },
    ],
  },
};
