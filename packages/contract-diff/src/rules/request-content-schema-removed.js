import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-content-schema-removed",
  level: "info",
  doc: "What callers send lost its `contentSchema` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "contentSchema" && e.change === "unset",
  message: () => "contentSchema removed",
  given: {
    request: [
      { type: "string", contentMediaType: "application/json", contentSchema: { type: "object" } },
      { type: "string", contentMediaType: "application/json" },
    ],
  },
};
