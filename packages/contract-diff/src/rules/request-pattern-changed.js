import { request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-pattern-changed",
  level: "warning",
  doc: "The pattern on what callers send changed and refuses some strings it accepted: check that callers' values still match. (A warning, as the peer: patterns rarely describe every value callers really send.)",
  on: "pattern",
  when: (e) => request(e) && ["changed", "specialized"].includes(String(e.change)),
  message: (e) => `pattern ${e.before} -> ${e.after}`,
  given: {
    request: [
      { type: "string", pattern: "^[a-zA-Z]+$" },
      { type: "string", pattern: "^[a-z]+$" },
    ],
  },
};
