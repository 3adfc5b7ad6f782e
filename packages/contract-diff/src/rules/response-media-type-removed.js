import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-media-type-removed",
  level: "error",
  doc: "A response media type is no longer answered: callers asking for it are refused.",
  on: "media-type",
  when: (e) => response(e) && e.change === "removed",
  message: (e) => `response media type ${e.media} removed`,
  given: {
    operation: [
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
      {
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "string" } } } },
        },
      },
    ],
  },
};
