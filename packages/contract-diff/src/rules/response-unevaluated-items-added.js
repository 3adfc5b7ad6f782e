import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-unevaluated-items-added",
  level: "info",
  doc: "What readers receive gained a `unevaluatedItems` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "unevaluatedItems" && e.change === "set",
  message: () => "unevaluatedItems added",
  given: {
    response: [
      { type: "array", prefixItems: [{ type: "string" }] },
      { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
    ],
  },
};
