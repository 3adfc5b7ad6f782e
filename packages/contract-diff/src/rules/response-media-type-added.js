import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-media-type-added",
  level: "info",
  doc: "A response media type may be answered beside the others (callers negotiate with Accept).",
  on: "media-type",
  when: (e) => response(e) && e.change === "added",
  message: (e) => `response media type ${e.media} added`,
  given: {
    operation: [
      {
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "string" } } } },
        },
      },
      {
        responses: {
          200: {
            description: "ok",
            content: {
              "application/json": { schema: { type: "string" } },
              "text/csv": { schema: { type: "string" } },
            },
          },
        },
      },
    ],
  },
};
