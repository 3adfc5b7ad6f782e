import { request, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "discriminator-changed",
  level: "info",
  doc: "A discriminator was added or removed, or a mapping changed in a way no caller relies on.",
  on: "discriminator",
  when: (e) =>
    ["set", "unset", "mapping-changed"].includes(String(e.change)) ||
    (request(e) && e.change === "mapping-added") ||
    (response(e) && e.change === "mapping-removed"),
  message: (e) => `discriminator ${e.change}${e.name ? ` (${e.name})` : ""}`,
  given: {
    request: [
      { oneOf: [{ type: "object" }] },
      { oneOf: [{ type: "object" }], discriminator: { propertyName: "kind" } },
    ],
  },
};
