import { removal, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-removed",
  level: "error",
  doc: "A property was removed from a closed body (additionalProperties false): callers that send it are refused.",
  on: "property",
  when: (e, policy) =>
    request(e) && e.change === "removed" && e.closed && !e.readOnly && removal(e, policy) !== "after-sunset",
  message: () => "property removed from a closed body: callers sending it are refused",
  given: {
    request: [
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        additionalProperties: false,
      },
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    ],
  },
};
