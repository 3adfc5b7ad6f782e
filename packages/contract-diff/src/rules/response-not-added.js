import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-not-added",
  level: "info",
  doc: "What readers receive gained a `not` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "not" && e.change === "set",
  message: () => "not added",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, not: { required: ["b"] } },
    ],
  },
};
