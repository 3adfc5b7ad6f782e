import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-media-schema-removed",
  level: "info",
  doc: "A request media type no longer has a schema: anything is accepted.",
  on: "media-schema",
  when: (e) => request(e) && e.change === "unset",
  message: (e) => `${e.media} request schema removed`,
  given: {
    operation: [
      {
        requestBody: { content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
      { requestBody: { content: { "application/json": {} } }, responses: { 200: { description: "ok" } } },
    ],
  },
};
