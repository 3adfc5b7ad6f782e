import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-media-schema-added",
  level: "info",
  doc: "A response media type now describes its body.",
  on: "media-schema",
  when: (e) => response(e) && e.change === "set",
  message: (e) => `${e.media} response now has a schema`,
  given: {
    operation: [
      { responses: { 200: { description: "ok", content: { "application/json": {} } } } },
      {
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { type: "string" } } } },
        },
      },
    ],
  },
};
