import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-property-added-optional",
  level: "info",
  doc: "An optional (or read-only) property was added to what callers send.",
  on: "property",
  when: (e) => request(e) && e.change === "added" && (!e.required || e.readOnly),
  message: (e) => `${e.readOnly ? "read-only" : "optional"} property added`,
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } },
    ],
  },
};
