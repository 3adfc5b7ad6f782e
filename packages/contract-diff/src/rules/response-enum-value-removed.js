import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-enum-value-removed",
  level: "info",
  doc: "A value readers receive takes fewer enum values.",
  on: "enum",
  when: (e) => response(e) && e.change === "values-removed",
  message: (e) => `no longer answers ${list(e.values)}`,
  given: {
    response: [
      { type: "string", enum: ["a", "b"] },
      { type: "string", enum: ["a"] },
    ],
  },
};
