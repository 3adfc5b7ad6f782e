import { request, response, show } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "default-documented-or-dropped",
  level: "info",
  doc: "A default was documented or dropped on a request value, or changed on a response value (defaults describe what callers send).",
  on: "default",
  when: (e) => (request(e) && e.flags?.parameter !== true && e.change !== "changed") || response(e),
  message: (e) => `default ${show(e.before)} -> ${show(e.after)}`,
  given: {
    response: [
      { type: "integer", default: 1 },
      { type: "integer", default: 2 },
    ],
  },
};
