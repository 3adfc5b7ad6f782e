import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-media-type-added",
  level: "info",
  doc: "A request media type is accepted beside the others.",
  on: "media-type",
  when: (e) => request(e) && e.change === "added",
  message: (e) => `request media type ${e.media} accepted`,
  given: {
    operation: [
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
      {
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { type: "string" } },
            "text/plain": { schema: { type: "string" } },
          },
        },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
