import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-dependent-required-removed",
  level: "info",
  doc: "What callers send needs fewer properties together.",
  on: "dependent-required",
  when: (e) => request(e) && ["removed", "shrank"].includes(String(e.change)),
  message: (e) =>
    `dependentRequired ${e.name}: ${JSON.stringify(e.before ?? [])} -> ${JSON.stringify(e.after ?? [])}`,
  given: { request: [{ type: "object", dependentRequired: { a: ["b"] } }, { type: "object" }] },
};
