// The lines a change touches, as `git diff` shows them: for every file, the ranges of its hunks on the base
// side (LEFT) and the head side (RIGHT), context lines included. A pull request review may comment only on
// those lines (format/github-review.js).
import { execFileSync } from "node:child_process";

/**
 * @param {string} root the repository @param {string} base a revision
 * @param {string | undefined} head a revision, or undefined for the working tree
 * @param {string[]} paths the folders to diff (the split spec's)
 * @returns {import("../format/github-review.js").Hunks}
 */
export function diffHunks(root, base, head, paths) {
  const args = [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--unified=3",
    base,
    ...(head ? [head] : []),
    "--",
    ...paths,
  ];
  return parseHunks(execFileSync("git", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 }));
}

/** Hunks from the text of a unified diff (`git diff`). @returns {import("../format/github-review.js").Hunks} */
export function parseHunks(text) {
  const hunks = new Map();
  const of = (file) => {
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
      const [from, count, to, toCount] = [match[1], match[2] ?? "1", match[3], match[4] ?? "1"].map(Number);
      if (left && count > 0) of(left).LEFT.push([from, from + count - 1]);
      if (right && toCount > 0) of(right).RIGHT.push([to, to + toCount - 1]);
    }
  }
  return hunks;
}
