import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-content-schema-added",
  level: "error",
  doc: "What callers send gained a `contentSchema` constraint.",
  on: "subschema",
  when: (e) => request(e) && e.keyword === "contentSchema" && e.change === "set",
  message: () => "contentSchema added",
  given: {
    request: [
      { type: "string", contentMediaType: "application/json" },
      { type: "string", contentMediaType: "application/json", contentSchema: { type: "object" } },
    ],
  },
};
