// Reads files at a git revision: the whole tree below the entry's folder in one `git cat-file --batch`
// (one process instead of one per file), anything else with `git show`.
import { execFileSync } from "node:child_process";
import { posix } from "node:path";

const git = (root, args, input) =>
  execFileSync("git", args, {
    cwd: root,
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });

/**
 * A reader of `revision` in the repository at `root`, or undefined when `revision` names no commit there.
 * @returns {(import("./index.js").Reader & { label: string }) | undefined}
 */
export function gitReader(root, revision) {
  let sha;
  try {
    sha = git(root, ["rev-parse", "--verify", "--quiet", `${revision}^{commit}`])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
  if (!sha) return undefined;
  const short = sha.slice(0, 7);
  const cache = new Map();
  const prefetched = new Set();

  /** Reads every blob below `folder` at the revision in one batch. */
  function prefetch(folder) {
    if (prefetched.has(folder)) return;
    prefetched.add(folder);
    let names;
    try {
      names = git(root, ["ls-tree", "-r", "--name-only", sha, "--", folder === "." ? "" : folder])
        .toString()
        .split("\n")
        .filter(Boolean);
    } catch {
      return;
    }
    const wanted = names.filter((name) => /\.(ya?ml|json)$/i.test(name));
    if (wanted.length === 0) return;
    const out = git(root, ["cat-file", "--batch"], wanted.map((name) => `${sha}:${name}\n`).join(""));
    let offset = 0;
    for (const name of wanted) {
      const end = out.indexOf(10, offset);
      const header = out.subarray(offset, end).toString();
      const size = Number(header.split(" ")[2]);
      if (header.endsWith("missing") || Number.isNaN(size)) {
        offset = end + 1;
        continue;
      }
      cache.set(name, out.subarray(end + 1, end + 1 + size).toString("utf8"));
      offset = end + 1 + size + 1;
    }
  }

  return {
    label: /^[0-9a-f]{40,64}$/.test(revision) ? short : `${revision} (${short})`,
    read(location) {
      if (!cache.has(location)) prefetch(posix.dirname(location));
      if (cache.has(location)) return cache.get(location);
      try {
        return git(root, ["show", `${sha}:${location}`]).toString("utf8");
      } catch (err) {
        const why = String(err.stderr ?? err.message)
          .trim()
          .split("\n")[0];
        throw new Error(`not at ${revision}: ${why}`);
      }
    },
    resolve: (from, ref) => posix.normalize(posix.join(posix.dirname(from), decodeURI(ref))),
    display: (location) => location,
  };
}
