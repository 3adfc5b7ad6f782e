import { removal } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-removed-after-sunset",
  level: "info",
  doc: "A deprecated parameter was removed after its sunset.",
  on: "parameter",
  when: (e, policy) => e.change === "removed" && removal(e, policy) === "after-sunset",
  message: (e) => `deprecated ${e.in} parameter ${e.name} removed`,
  given: {
    parameter: [
      { name: "q", in: "query", schema: { type: "string" }, deprecated: true, "x-sunset": "2020-01-01" },
      undefined,
    ],
  },
};
