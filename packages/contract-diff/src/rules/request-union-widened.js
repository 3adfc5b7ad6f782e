import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-union-widened",
  level: "info",
  doc: "A schema callers send became a oneOf/anyOf, one of whose variants is the old schema: what callers sent stays valid.",
  on: "union",
  when: (e) => request(e) && e.change === "wrapped" && e.keepsOld === true,
  message: (e) => `became a ${e.keyword} that keeps the old form as a variant`,
  given: {
    request: [
      { type: "array", items: { type: "string" } },
      { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
    ],
  },
};
