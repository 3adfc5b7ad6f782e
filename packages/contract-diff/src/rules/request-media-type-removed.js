import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-media-type-removed",
  level: "error",
  doc: "A request media type is no longer accepted: callers sending it are refused.",
  on: "media-type",
  when: (e) => request(e) && e.change === "removed",
  message: (e) => `request media type ${e.media} no longer accepted`,
  given: {
    operation: [
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
      {
        requestBody: { required: true, content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
