import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-not-removed",
  level: "error",
  doc: "What readers receive lost its `not` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "not" && e.change === "unset",
  message: () => "not removed",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } }, not: { required: ["b"] } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
