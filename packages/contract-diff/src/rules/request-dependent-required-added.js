import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-dependent-required-added",
  level: "error",
  doc: "What callers send must now hold more properties together (dependentRequired).",
  on: "dependent-required",
  when: (e) => request(e) && ["added", "grew"].includes(String(e.change)),
  message: (e) =>
    `dependentRequired ${e.name}: ${JSON.stringify(e.before ?? [])} -> ${JSON.stringify(e.after ?? [])}`,
  given: { request: [{ type: "object" }, { type: "object", dependentRequired: { a: ["b"] } }] },
};
