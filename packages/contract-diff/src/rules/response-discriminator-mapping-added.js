import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-discriminator-mapping-added",
  level: "warning",
  doc: "Readers may receive a discriminator value they do not know.",
  on: "discriminator",
  when: (e) => response(e) && e.change === "mapping-added",
  message: (e) => `mapping ${e.name} added`,
  given: {
    response: [
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind" } },
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind", mapping: { a: "#/x" } } },
    ],
  },
};
