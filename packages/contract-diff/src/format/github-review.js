// The body of GitHub's "create a review for a pull request" call (POST /repos/{owner}/{repo}/pulls/{n}/reviews):
// one comment per finding on its line of the split spec, on the base side (`LEFT`) for what the change removed
// and the head side (`RIGHT`) for what it added or changed. GitHub takes a comment only on a line inside the
// pull request's diff hunks: a finding elsewhere (or with no line) is folded into the review's body. Every
// comment and the body carry a hidden marker, so the next push can update or delete them (github/post-review.js).
import { evidenceLines, failing, gateLines, reachText, summarize } from "./common.js";

/** GitHub refuses a review body or a comment longer than this many characters. */
export const GITHUB_LIMIT = 65_536;
export const REVIEW_MARKER = "<!-- workapi-contract-diff:review -->";
/** The marker of one finding's comment: the rule and the place, which stay the same from push to push. */
export const commentMarker = (
  /** @type {Pick<import("../index.js").Finding, "rule" | "location">} */ finding,
) => `<!-- workapi-contract-diff:comment ${finding.rule} ${finding.location.replaceAll("--", "- -")} -->`;
/** The key a comment's marker holds, or undefined for a comment that is not ours. */
export const markerKey = (/** @type {string} */ body) =>
  /<!-- workapi-contract-diff:comment (.+?) -->/.exec(String(body ?? ""))?.[1];

/**
 * The package's types, declared once in ../index.d.ts:
 * @typedef {import("../index.js").Hunks} Hunks the diff of the pull request, by file
 * @typedef {import("../index.js").ReviewComment} ReviewComment
 */

/** `text` cut to `limit` characters (GitHub's, or less to leave room), ending with a note that says so. */
export function fit(/** @type {string} */ text, limit = GITHUB_LIMIT, what = "this comment") {
  if (text.length <= limit) return text;
  const note = (/** @type {number} */ cut) =>
    `\n\n_… ${cut} characters of ${what} were cut to stay under GitHub's ${GITHUB_LIMIT.toLocaleString("en")}-character limit: run \`workapi-contract-diff --format text\` for all of it._`;
  let cut = text.length - limit + note(text.length).length;
  // The note's own length depends on the count it prints: settle it.
  while (text.length - cut + note(cut).length > limit) cut++;
  return `${text.slice(0, text.length - cut)}${note(cut)}`;
}

/** The side and line a finding's comment goes on, or undefined when that line is outside the diff. */
export function placeInDiff(
  /** @type {import("../index.js").Finding} */ finding,
  /** @type {import("../index.js").Hunks | undefined} */ hunks,
) {
  const at = finding.removedAt ?? finding.source;
  if (!at || !hunks) return undefined;
  /** @type {"LEFT" | "RIGHT"} */
  const side = finding.removedAt || finding.side === "base" ? "LEFT" : "RIGHT";
  const ranges = hunks.get(at.file)?.[side] ?? [];
  return ranges.some(([from, to]) => at.line >= from && at.line <= to)
    ? { path: at.file, side, line: at.line }
    : undefined;
}

function level(
  /** @type {import("../index.js").Finding} */ finding,
  /** @type {import("../index.js").GateResult | undefined} */ gate,
) {
  if (failing(finding, gate)) return "❌ **error**";
  if (finding.level === "error") return "**error** (acknowledged)";
  return finding.level === "warning" ? "⚠️ **warning**" : "ℹ️ info";
}

/** One finding as the Markdown of its comment. */
function commentBody(
  /** @type {import("../index.js").Finding} */ finding,
  /** @type {import("../index.js").GateResult | undefined} */ gate,
) {
  const lines = [
    `${level(finding, gate)} \`${finding.rule}\` at \`${finding.where}\`: ${finding.message}`,
    "",
    `Reaches ${reachText(finding, 6)}.`,
  ];
  if (finding.note) lines.push("", `_${finding.note}_`);
  const evidence = evidenceLines(finding);
  if (evidence.length > 0) lines.push("", ...evidence.map((line) => `> ${line}`));
  return lines.join("\n");
}

/**
 * @param {import("../engine/index.js").Report} report
 * @param {{ gate?: import("../gate.js").GateResult, review?: { commitId?: string, hunks?: Hunks } }} context
 */
export function githubReview(report, { gate, review = {} } = {}) {
  /** @type {ReviewComment[]} */
  const comments = [];
  const folded = [];
  for (const finding of report.findings) {
    const place = placeInDiff(finding, review.hunks);
    if (!place) {
      folded.push(finding);
      continue;
    }
    const marker = commentMarker(finding);
    const body = `${fit(commentBody(finding, gate), GITHUB_LIMIT - marker.length - 2)}\n\n${marker}`;
    comments.push({ path: place.path, line: place.line, side: place.side, body });
  }
  return `${JSON.stringify(
    {
      ...(review.commitId ? { commit_id: review.commitId } : {}),
      body: reviewBody(report, gate, comments.length, folded),
      event: "COMMENT",
      comments,
    },
    null,
    2,
  )}\n`;
}

/** The summary, the verdict, and the findings that have no line in the diff, under the size limit. */
function reviewBody(
  /** @type {import("../index.js").Report} */ report,
  /** @type {import("../index.js").GateResult | undefined} */ gate,
  /** @type {number} */ commented,
  /** @type {import("../index.js").Finding[]} */ folded,
) {
  const head = [`## Contract review: ${summarize(report.counts)}`, ""];
  if (gate) head.push(...gateLines(gate).map((line) => `- ${line}`), "");
  if (commented > 0)
    head.push(`${commented} finding${commented === 1 ? " is" : "s are"} commented on its line.`, "");
  const room = GITHUB_LIMIT - REVIEW_MARKER.length - 400;
  let size = head.join("\n").length;
  const rows = [];
  let left = 0;
  if (folded.length > 0) head.push("Outside the lines this pull request changes:", "");
  for (const finding of folded) {
    const place = finding.source ? `${finding.source.file}:${finding.source.line}` : finding.location;
    const evidence = evidenceLines(finding).map((line) => `\n  > ${line}`);
    const row = `- ${level(finding, gate)} \`${finding.rule}\` \`${place}\` ${finding.where}: ${finding.message} (${reachText(finding, 3)})${evidence.join("")}`;
    if (size + row.length + 1 > room) {
      left++;
      continue;
    }
    rows.push(row);
    size += row.length + 1;
  }
  const out = [...head, ...rows];
  if (left > 0)
    out.push(
      "",
      `_${left} more finding${left === 1 ? "" : "s"} did not fit under GitHub's 65,536-character limit: run \`workapi-contract-diff --format text\` for all of them._`,
    );
  out.push("", REVIEW_MARKER);
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}
