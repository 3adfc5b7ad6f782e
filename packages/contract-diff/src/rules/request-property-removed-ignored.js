import { removal, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-removed-ignored",
  level: "warning",
  doc: "A property was removed from an open body: what callers send in it is ignored now.",
  on: "property",
  when: (e, policy) =>
    request(e) && e.change === "removed" && !e.closed && !e.readOnly && removal(e, policy) !== "after-sunset",
  message: () => "property removed: the server ignores it now",
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
