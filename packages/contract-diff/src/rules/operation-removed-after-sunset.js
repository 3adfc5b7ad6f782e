import { removal } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-removed-after-sunset",
  level: "info",
  doc: "A deprecated operation was removed after its sunset date (or, with no minimum deprecation period, after being deprecated).",
  on: "operation",
  when: (e, policy) => e.change === "removed" && removal(e, policy) === "after-sunset",
  message: (e) => `deprecated operation removed${e.sunset ? ` after its sunset ${e.sunset}` : ""}`,
  given: {
    operation: [
      { deprecated: true, "x-sunset": "2020-01-01", responses: { 200: { description: "ok" } } },
      undefined,
    ],
  },
};
