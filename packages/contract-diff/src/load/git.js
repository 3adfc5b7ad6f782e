// Every question the differ asks git, and the only module that runs it: the repository's root, the commit a
// revision names, the files of a revision (the whole tree below the entry's folder in one `git cat-file
// --batch`, one process instead of one per file), for the gate, the files a change adds, for github-review,
// the diff's text (./hunks.js reads its hunks), for the changeset command, the branch checked out, and for the
// release's contract changes, the tags of the versions released.
import { execFileSync } from "node:child_process";
import { posix } from "node:path";

/** git's output (a Buffer) for `args` in `root`; throws when git fails. */
const git = (
  /** @type {string} */ root,
  /** @type {string[]} */ args,
  /** @type {string | undefined} */ input = undefined,
) =>
  execFileSync("git", args, {
    cwd: root,
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });

const text = (/** @type {string} */ root, /** @type {string[]} */ args) =>
  git(root, args).toString("utf8").trim();

/** The top folder of the work tree holding `cwd`, or `cwd` itself outside one. */
export function repositoryRoot(/** @type {string} */ cwd) {
  try {
    return text(cwd, ["rev-parse", "--show-toplevel"]);
  } catch {
    return cwd;
  }
}

/** The branch checked out in the repository at `root`; undefined outside one or on a detached HEAD. */
export function currentBranch(/** @type {string} */ root) {
  try {
    const branch = text(root, ["rev-parse", "--abbrev-ref", "HEAD"]);
    return branch && branch !== "HEAD" ? branch : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The unified diff (`git diff`, three lines of context) of `paths` from the revision `base` to `head`, or to
 * the working tree when `head` is undefined.
 * @param {string} root @param {string} base @param {string | undefined} head @param {string[]} paths
 */
export function diffText(root, base, head, paths) {
  const args = ["diff", "--no-color", "--no-ext-diff", "--unified=3", base, ...(head ? [head] : []), "--"];
  return git(root, [...args, ...paths]).toString("utf8");
}

/**
 * The tags of the repository at `root` that `pattern` matches (git's glob: `@workapi/spec@*`), the highest
 * version first (`git tag --sort=-v:refname`).
 * @param {string} root @param {string} pattern @returns {string[]}
 */
export function tagsMatching(root, pattern) {
  return text(root, ["tag", "--list", pattern, "--sort=-v:refname"]).split("\n").filter(Boolean);
}

/** The commit `revision` names in the repository at `root`, or undefined when it names none. */
export function commitOf(/** @type {string} */ root, /** @type {string} */ revision) {
  try {
    return text(root, ["rev-parse", "--verify", "--quiet", `${revision}^{commit}`]) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A reader of the files of commit `sha` (which `revision` names).
 * @param {string} root @param {string} revision @param {string} sha
 * @returns {import("./index.js").Reader}
 */
export function revisionReader(root, revision, sha) {
  /** @type {Map<string, string>} */
  const cache = new Map();
  const prefetched = new Set();

  /** Reads every blob below `folder` at the revision in one batch. */
  function prefetch(/** @type {string} */ folder) {
    if (prefetched.has(folder)) return;
    prefetched.add(folder);
    let names;
    try {
      names = text(root, ["ls-tree", "-r", "--name-only", sha, "--", folder === "." ? "" : folder])
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
    read(location) {
      if (!cache.has(location)) prefetch(posix.dirname(location));
      const known = cache.get(location);
      if (known !== undefined) return known;
      try {
        return git(root, ["show", `${sha}:${location}`]).toString("utf8");
      } catch (err) {
        const error = /** @type {Error & { stderr?: Buffer }} */ (err);
        const why = String(error.stderr ?? error.message)
          .trim()
          .split("\n")[0];
        throw new Error(`not at ${revision}: ${why}`);
      }
    },
    resolve: (from, ref) => posix.normalize(posix.join(posix.dirname(from), decodeURI(ref))),
    display: (location) => location,
  };
}

/**
 * The files below `folder` that the change under review adds: those added since the merge base of `baseRef`
 * and HEAD (none when `baseRef` shares no history with HEAD: `committed` is then false), plus those added in
 * the index or not tracked yet.
 * @param {string} root @param {string | undefined} baseRef @param {string} folder
 * @returns {{ files: string[], committed: boolean }}
 */
export function filesAdded(root, baseRef, folder) {
  const files = [];
  let committed = false;
  if (baseRef) {
    let mergeBase;
    try {
      mergeBase = text(root, ["merge-base", baseRef, "HEAD"]);
    } catch {
      mergeBase = undefined;
    }
    if (mergeBase) {
      committed = true;
      const names = text(root, ["diff", "--name-only", "--diff-filter=A", mergeBase, "HEAD", "--", folder]);
      files.push(...names.split("\n").filter(Boolean));
    }
  }
  try {
    const status = git(root, ["status", "--porcelain", "--untracked-files=all", "--", folder]).toString();
    for (const line of status.split("\n")) {
      const code = line.slice(0, 2);
      if (code === "??" || code.startsWith("A")) files.push(line.slice(3).trim());
    }
  } catch {
    // not a git work tree: nothing uncommitted to add
  }
  return { files, committed };
}
