import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-content-schema-added",
  level: "info",
  doc: "What readers receive gained a `contentSchema` constraint.",
  on: "subschema",
  when: (e) => response(e) && e.keyword === "contentSchema" && e.change === "set",
  message: () => "contentSchema added",
  given: {
    response: [
      { type: "string", contentMediaType: "application/json" },
      { type: "string", contentMediaType: "application/json", contentSchema: { type: "object" } },
    ],
  },
};
