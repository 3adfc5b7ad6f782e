import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-body-closed",
  level: "error",
  doc: "An object callers send no longer admits unknown properties (additionalProperties or unevaluatedProperties false): extra fields are refused. (The peer has no such check; it refuses requests that passed before.)",
  on: "closed",
  when: (e) => request(e) && e.change === "set",
  message: () => "unknown properties now refused",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    ],
  },
};
