import { request, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-const-changed",
  level: "error",
  doc: "A value callers send is a different constant.",
  on: "const",
  when: (e) => request(e) && e.change === "changed",
  message: (e) => `const ${show(e.before)} -> ${show(e.after)}`,
  given: {
    request: [
      { type: "string", const: "a" },
      { type: "string", const: "b" },
    ],
  },
};
