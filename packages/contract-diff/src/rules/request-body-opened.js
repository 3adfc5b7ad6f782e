import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-opened",
  level: "info",
  doc: "An object callers send admits unknown properties now.",
  on: "closed",
  when: (e) => request(e) && e.change === "unset",
  message: () => "unknown properties now accepted",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
