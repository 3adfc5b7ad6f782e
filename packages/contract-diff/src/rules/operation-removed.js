import { removal } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "operation-removed",
  level: "error",
  doc: "An operation was removed before its deprecation ended: callers of it fail. Removing is fine once it was deprecated and its `x-sunset` date has passed (or, with no minimum deprecation period, once it was deprecated).",
  on: "operation",
  when: (e, policy) =>
    e.change === "removed" &&
    ["not-deprecated", "before-sunset", "invalid", "no-sunset"].includes(removal(e, policy)),
  message: (e, policy) => {
    const why = /** @type {Record<string, string>} */ ({
      "not-deprecated": "without being deprecated first",
      "before-sunset": `before its sunset date ${e.sunset}`,
      invalid: `with an unreadable sunset ${JSON.stringify(e.sunset)}`,
      "no-sunset": "while deprecated without a sunset date",
    })[removal(e, policy)];
    return `${e.pathRemains ? "method" : "operation"} removed ${why}`;
  },
  given: { operation: [{ responses: { 200: { description: "ok" } } }, undefined] },
};
