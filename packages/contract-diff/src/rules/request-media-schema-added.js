import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-media-schema-added",
  level: "error",
  doc: "A request media type that took anything now has a schema: what callers send is checked.",
  on: "media-schema",
  when: (e) => request(e) && e.change === "set",
  message: (e) => `${e.media} request now has a schema`,
  given: {
    operation: [
      { requestBody: { content: { "application/json": {} } }, responses: { 200: { description: "ok" } } },
      {
        requestBody: { content: { "application/json": { schema: { type: "string" } } } },
        responses: { 200: { description: "ok" } },
      },
    ],
  },
};
