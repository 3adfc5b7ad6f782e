import { removal } from "./support.js";

/** @type {import("./rule.js").Rule} */
export default {
  id: "request-parameter-removed",
  level: "error",
  doc: "A parameter was removed before its deprecation ended: what callers send is ignored or refused.",
  on: "parameter",
  when: (e, policy) => e.change === "removed" && removal(e, policy) !== "after-sunset",
  message: (e) =>
    `${e.in} parameter ${e.name} removed${e.deprecated ? " before its sunset" : " without being deprecated first"}`,
  given: { parameter: [{ name: "q", in: "query", schema: { type: "string" } }, undefined] },
};
