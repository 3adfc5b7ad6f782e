import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-media-schema-removed",
  level: "error",
  doc: "A response media type no longer describes its body: readers lose every promise about it.",
  on: "media-schema",
  when: (e) => response(e) && e.change === "unset",
  message: (e) => `${e.media} response schema removed`,
  given: {
    operation: [
      {
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "string" } } } },
        },
      },
      { responses: { 200: { description: "ok", content: { "application/json": {} } } } },
    ],
  },
};
