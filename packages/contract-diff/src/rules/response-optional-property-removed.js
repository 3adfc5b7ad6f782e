import { removal, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-optional-property-removed",
  level: "error",
  doc: "An optional property was removed from what readers receive: readers that use it when present lose it. Stricter than the peer (a warning there): a field removed from a response breaks readers, whatever `required` said.",
  on: "property",
  when: (e, policy) =>
    response(e) &&
    e.change === "removed" &&
    !e.required &&
    !e.writeOnly &&
    removal(e, policy) !== "after-sunset",
  message: () => "optional property removed: readers lose it",
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
  },
};
