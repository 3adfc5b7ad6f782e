// The lines a change touches, as `git diff` shows them: for every file, the ranges of its hunks on the base
// side (LEFT) and the head side (RIGHT), context lines included. A pull request review may comment only on
// those lines (format/github-review.js). git runs in ./git.js.
import { diffText } from "./git.js";

/**
 * @param {string} root the repository @param {string} base a revision
 * @param {string | undefined} head a revision, or undefined for the working tree
 * @param {string[]} paths the folders to diff (the split spec's)
 * @returns {import("../index.js").Hunks}
 */
export function diffHunks(root, base, head, paths) {
  return parseHunks(diffText(root, base, head, paths));
}

/** Hunks from the text of a unified diff (`git diff`). @returns {import("../index.js").Hunks} */
export function parseHunks(/** @type {string} */ text) {
  const hunks = new Map();
  const of = (/** @type {string} */ file) => {
    if (!hunks.has(file)) hunks.set(file, { LEFT: [], RIGHT: [] });
    return hunks.get(file);
  };
  let left;
  let right;
  for (const line of text.split("\n")) {
    if (line.startsWith("--- ")) left = line === "--- /dev/null" ? undefined : line.slice(6);
    else if (line.startsWith("+++ ")) right = line === "+++ /dev/null" ? undefined : line.slice(6);
    else if (line.startsWith("@@ ")) {
      const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!match) continue;
      const [from, count, to, toCount] = /** @type {[number, number, number, number]} */ (
        [match[1], match[2] ?? "1", match[3], match[4] ?? "1"].map(Number)
      );
      if (left && count > 0) of(left).LEFT.push([from, from + count - 1]);
      if (right && toCount > 0) of(right).RIGHT.push([to, to + toCount - 1]);
    }
  }
  return hunks;
}
