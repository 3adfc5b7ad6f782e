import { removal, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-removed-after-sunset",
  level: "info",
  doc: "A deprecated (or read-only) property was removed from what callers send.",
  on: "property",
  when: (e, policy) =>
    request(e) && e.change === "removed" && (e.readOnly || removal(e, policy) === "after-sunset"),
  message: () => "deprecated or read-only property removed",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" }, b: { type: "string", readOnly: true } } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
