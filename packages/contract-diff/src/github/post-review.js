// Posts a `github-review` report on a pull request so that it never collects stale comments: its own earlier
// comments (found by their hidden marker) are updated in place when the same finding is on the same line,
// deleted when the finding is gone or moved, and only the new ones go into a new review. The review body of
// the previous push is updated instead of repeated when there is nothing new to comment on. Plain `fetch`
// against GITHUB_API_URL: four REST endpoints do not need a client library.
import { markerKey, REVIEW_MARKER } from "../format/github-review.js";

const SUPERSEDED = "<!-- workapi-contract-diff:review superseded -->";
const PAGE = 100;

/**
 * The package's types, declared once in ../index.d.ts:
 * @typedef {import("../index.js").ReviewTarget} Target
 * @typedef {import("../index.js").Review} Review
 * @typedef {import("../index.js").PostOutcome} Outcome
 */

/** A small REST client over `fetch` for one repository. @param {Target} target */
function client({ apiUrl, token, repository, fetch = globalThis.fetch }) {
  const base = `${apiUrl.replace(/\/$/, "")}/repos/${repository}`;
  async function call(
    /** @type {string} */ method,
    /** @type {string} */ path,
    /** @type {unknown} */ body = undefined,
  ) {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${token}`,
        "x-github-api-version": "2022-11-28",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const text = await response.text();
      throw new Error(`GitHub ${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    }
    return response.status === 204 ? undefined : response.json();
  }
  async function all(/** @type {string} */ path) {
    const items = [];
    for (let page = 1; ; page++) {
      const batch = await call("GET", `${path}?per_page=${PAGE}&page=${page}`);
      items.push(...batch);
      if (batch.length < PAGE) return items;
    }
  }
  return { call, all };
}

/**
 * @param {Review} review the `github-review` report
 * @param {Target} target
 * @returns {Promise<Outcome>}
 */
export async function postReview(review, target) {
  const { call, all } = client(target);
  const pull = `/pulls/${target.pullNumber}`;
  const outcome = { created: 0, updated: 0, deleted: 0, unchanged: 0 };
  const ours = (await all(`${pull}/comments`)).filter((c) => markerKey(c.body) !== undefined);
  const fresh = [];
  const kept = new Set();
  for (const comment of review.comments) {
    const key = markerKey(comment.body);
    const earlier = ours.find(
      (c) =>
        !kept.has(c.id) &&
        markerKey(c.body) === key &&
        c.path === comment.path &&
        c.line === comment.line &&
        (c.side ?? "RIGHT") === comment.side,
    );
    if (!earlier) {
      fresh.push(comment);
      continue;
    }
    kept.add(earlier.id);
    if (earlier.body === comment.body) outcome.unchanged++;
    else {
      await call("PATCH", `/pulls/comments/${earlier.id}`, { body: comment.body });
      outcome.updated++;
    }
  }
  for (const stale of ours.filter((c) => !kept.has(c.id))) {
    await call("DELETE", `/pulls/comments/${stale.id}`);
    outcome.deleted++;
  }
  const earlierReviews = (await all(`${pull}/reviews`)).filter((r) =>
    String(r.body ?? "").includes(REVIEW_MARKER),
  );
  const latest = earlierReviews.at(-1);
  if (fresh.length === 0 && latest) {
    if (latest.body !== review.body) await call("PUT", `${pull}/reviews/${latest.id}`, { body: review.body });
    return { ...outcome, reviewUpdated: latest.id };
  }
  const created = await call("POST", `${pull}/reviews`, { ...review, comments: fresh });
  outcome.created = fresh.length;
  // Earlier review bodies cannot be deleted once submitted: they point to the new one instead.
  for (const old of earlierReviews) {
    await call("PUT", `${pull}/reviews/${old.id}`, {
      body: `_Superseded by the contract review of a later push._\n\n${SUPERSEDED}`,
    });
  }
  return { ...outcome, reviewId: created.id };
}

/**
 * The pull request a workflow runs for: `--pull`, else the event payload's (GITHUB_EVENT_PATH).
 * @param {string | undefined} given @param {(path: string) => string} readFile
 */
export function pullNumberOf(given, /** @type {Record<string, string | undefined>} */ env, readFile) {
  if (given !== undefined) return Number(given);
  if (!env.GITHUB_EVENT_PATH) return Number.NaN;
  const event = JSON.parse(readFile(env.GITHUB_EVENT_PATH));
  return Number(event.pull_request?.number ?? event.number);
}
