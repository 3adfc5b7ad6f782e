// Strings: a pattern set, unset, generalized or specialized (patterns.js decides), and the content keywords
// (contentMediaType, contentEncoding).
import { acceptsAnything, comparePatterns } from "../patterns.js";

/** @typedef {import("./scope.js").Emit} Emit */

/** @param {Emit} emit */
export function compareStrings(
  /** @type {import("../json.js").Json} */ b,
  /** @type {import("../json.js").Json} */ h,
  emit,
) {
  if (b.pattern !== h.pattern) {
    // A pattern that refuses nothing reads as none: `pattern: ""` -> `"^[a-z]+$"` is a pattern added.
    const none = (/** @type {string} */ pattern) => pattern === undefined || acceptsAnything(pattern);
    let change = none(b.pattern) ? "set" : none(h.pattern) ? "unset" : "changed";
    if (none(b.pattern) && none(h.pattern)) change = "changed";
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
