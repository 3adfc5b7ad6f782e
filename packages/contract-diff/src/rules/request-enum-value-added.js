import { list, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-enum-value-added",
  level: "info",
  doc: "A value callers send accepts more enum values.",
  on: "enum",
  when: (e) => request(e) && e.change === "values-added",
  message: (e) => `accepts ${list(e.values)} too`,
  given: {
    request: [
      { type: "string", enum: ["a"] },
      { type: "string", enum: ["a", "b"] },
    ],
  },
};
