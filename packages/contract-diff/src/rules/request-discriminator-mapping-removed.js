import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-discriminator-mapping-removed",
  level: "warning",
  doc: "A discriminator value callers send no longer maps to a variant.",
  on: "discriminator",
  when: (e) => request(e) && e.change === "mapping-removed",
  message: (e) => `mapping ${e.name} removed`,
  given: {
    request: [
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind", mapping: { a: "#/x" } } },
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind" } },
    ],
  },
};
