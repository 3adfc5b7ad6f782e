// Strings: a pattern set, unset, generalized or specialized (patterns.js decides), and the content keywords
// (contentMediaType, contentEncoding).
import { comparePatterns } from "../patterns.js";

/** @typedef {import("./scope.js").Emit} Emit */

/** @param {Emit} emit */
export function compareStrings(b, h, emit) {
  if (b.pattern !== h.pattern) {
    let change = b.pattern === undefined ? "set" : h.pattern === undefined ? "unset" : "changed";
    if (change === "changed") {
      const verdict = comparePatterns(b.pattern, h.pattern);
      if (verdict === "generalized") change = "generalized";
      else if (comparePatterns(h.pattern, b.pattern) === "generalized") change = "specialized";
    }
    emit("pattern", { change, before: b.pattern, after: h.pattern });
  }
  for (const keyword of ["contentMediaType", "contentEncoding"]) {
    if (b[keyword] === h[keyword]) continue;
    const change = b[keyword] === undefined ? "added" : h[keyword] === undefined ? "removed" : "changed";
    emit("content-encoding", { change, keyword, before: b[keyword], after: h[keyword] });
  }
}
