import { deprecation } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-deprecated-without-sunset",
  level: "error",
  doc: "A parameter was deprecated without a valid `x-sunset` far enough ahead, while a minimum deprecation period is set (or with an unreadable date).",
  on: "parameter-deprecated",
  when: (e, policy) => e.change === "set" && deprecation(e, policy) !== "ok",
  message: (e) =>
    `parameter deprecated with sunset ${e.sunset ?? "(none)"}: the policy asks for a date at least the minimum period ahead`,
  given: {
    policy: { deprecationDays: 30 },
    parameter: [
      { name: "q", in: "query", schema: { type: "string" } },
      { name: "q", in: "query", schema: { type: "string" }, deprecated: true },
    ],
  },
};
