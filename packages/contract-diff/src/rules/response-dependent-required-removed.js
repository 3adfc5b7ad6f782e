import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-dependent-required-removed",
  level: "error",
  doc: "What readers receive no longer holds properties together as promised.",
  on: "dependent-required",
  when: (e) => response(e) && ["removed", "shrank"].includes(String(e.change)),
  message: (e) =>
    `dependentRequired ${e.name}: ${JSON.stringify(e.before ?? [])} -> ${JSON.stringify(e.after ?? [])}`,
  given: { response: [{ type: "object", dependentRequired: { a: ["b"] } }, { type: "object" }] },
};
