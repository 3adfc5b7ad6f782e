import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-content-schema-removed",
  level: "error",
  doc: "What readers receive lost its `contentSchema` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "contentSchema" && e.change === "unset",
  message: () => "contentSchema removed",
  given: {
    response: [
      { type: "string", contentMediaType: "application/json", contentSchema: { type: "object" } },
      { type: "string", contentMediaType: "application/json" },
    ],
  },
};
