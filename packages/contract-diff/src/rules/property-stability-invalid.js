import { STABILITY, stabilityRank } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "property-stability-invalid",
  level: "error",
  doc: "A property's `x-stability-level` was set to something that is not draft, alpha, beta or stable: a policy that cannot be read cannot be enforced.",
  on: "stability",
  when: (e) => stabilityRank(e.after) < 0,
  message: (e) => `x-stability-level ${JSON.stringify(e.after)} is not one of ${STABILITY.join(", ")}`,
  given: {
    request: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string", "x-stability-level": "gamma" } } },
    ],
  },
};
