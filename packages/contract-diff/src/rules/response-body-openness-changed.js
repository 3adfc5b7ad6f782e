import { response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-body-openness-changed",
  level: "info",
  doc: "An object readers receive says whether it holds unknown properties differently (readers ignore unknown fields).",
  on: "closed",
  when: (e) => response(e),
  message: (e) => `unknown properties ${e.change === "set" ? "no longer" : "may now be"} present`,
  given: {
    response: [
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    ],
  },
};
