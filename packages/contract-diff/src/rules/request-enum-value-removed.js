import { list, request } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-enum-value-removed",
  level: "error",
  doc: "A value callers send no longer accepts some enum values.",
  on: "enum",
  when: (e) => request(e) && e.change === "values-removed",
  message: (e) => `no longer accepts ${list(e.values)}`,
  given: {
    request: [
      { type: "string", enum: ["a", "b"] },
      { type: "string", enum: ["a"] },
    ],
  },
};
