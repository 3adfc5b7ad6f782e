import { response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "response-const-changed",
  level: "error",
  doc: "A value readers receive is a different constant.",
  on: "const",
  when: (e) => response(e) && e.change === "changed",
  message: (e) => `const ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "string", const: "a" },
      { type: "string", const: "b" },
    ],
  },
};
