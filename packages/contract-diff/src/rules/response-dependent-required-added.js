import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-dependent-required-added",
  level: "info",
  doc: "What readers receive holds more properties together.",
  on: "dependent-required",
  when: (e) => response(e) && ["added", "grew"].includes(String(e.change)),
  message: (e) =>
    `dependentRequired ${e.name}: ${JSON.stringify(e.before ?? [])} -> ${JSON.stringify(e.after ?? [])}`,
  given: { response: [{ type: "object" }, { type: "object", dependentRequired: { a: ["b"] } }] },
};
