import { list, response } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-enum-value-added",
  level: "warning",
  doc: "A value readers receive may take new enum values: exhaustive readers need a default branch.",
  on: "enum",
  when: (e) => response(e) && e.change === "values-added",
  message: (e) => `may answer ${list(e.values)}`,
  given: {
    response: [
      { type: "string", enum: ["a"] },
      { type: "string", enum: ["a", "b"] },
    ],
  },
};
