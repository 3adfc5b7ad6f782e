// Posting a github-review report against a stand-in of GitHub's pull request review endpoints (no network
// here): the first push creates the review; the next ones update their own comments in place, delete the
// stale ones and add only the new ones, so a pull request never collects copies; GitHub's limits hold.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { commentMarker, GITHUB_LIMIT, githubReview } from "../src/format/github-review.js";
import { postReview } from "../src/github/post-review.js";
import { parseHunks } from "../src/load/hunks.js";

type Comment = { id: number; path: string; line: number; side: string; body: string };
type Review = { id: number; body: string; commit_id?: string };
type Payload = { body: string; comments: Comment[]; commit_id?: string };

/** The stand-in: pull request 7 of acme/api, in memory, refusing what GitHub refuses (size, auth). */
function standIn() {
  const state = { comments: [] as Comment[], reviews: [] as Review[], calls: [] as string[], nextId: 1 };
  const read = (request: IncomingMessage) =>
    new Promise<Payload>((done) => {
      let text = "";
      request.on("data", (chunk) => {
        text += chunk;
      });
      request.on("end", () => done(text ? JSON.parse(text) : { body: "", comments: [] }));
    });
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    const body = await read(request);
    state.calls.push(`${request.method} ${url.pathname}`);
    const send = (status: number, value?: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(value === undefined ? undefined : JSON.stringify(value));
    };
    if (request.headers.authorization !== "Bearer t0ken") return send(401, { message: "Bad credentials" });
    const tooLong = (text: unknown) => typeof text === "string" && text.length > GITHUB_LIMIT;
    const page = (items: unknown[]) => {
      const size = Number(url.searchParams.get("per_page") ?? 30);
      const at = Number(url.searchParams.get("page") ?? 1);
      return items.slice((at - 1) * size, at * size);
    };
    const p = url.pathname;
    if (request.method === "GET" && p === "/repos/acme/api/pulls/7/comments")
      return send(200, page(state.comments));
    if (request.method === "GET" && p === "/repos/acme/api/pulls/7/reviews")
      return send(200, page(state.reviews));
    if (request.method === "POST" && p === "/repos/acme/api/pulls/7/reviews") {
      if (tooLong(body.body) || body.comments.some((c: Comment) => tooLong(c.body)))
        return send(422, { message: "body is too long (maximum is 65536 characters)" });
      const review = { id: state.nextId++, body: body.body, commit_id: body.commit_id };
      state.reviews.push(review);
      for (const c of body.comments) state.comments.push({ ...c, id: state.nextId++ });
      return send(200, review);
    }
    const comment = /^\/repos\/acme\/api\/pulls\/comments\/(\d+)$/.exec(p);
    const found = comment && state.comments.find((c) => c.id === Number(comment[1]));
    if (comment && !found) return send(404, { message: "Not Found" });
    if (found && request.method === "PATCH") {
      if (tooLong(body.body)) return send(422, { message: "body is too long" });
      found.body = body.body;
      return send(200, found);
    }
    if (found && request.method === "DELETE") {
      state.comments = state.comments.filter((c) => c !== found);
      return send(204);
    }
    const review = /^\/repos\/acme\/api\/pulls\/7\/reviews\/(\d+)$/.exec(p);
    const old = review && state.reviews.find((r) => r.id === Number(review[1]));
    if (old && request.method === "PUT") {
      old.body = body.body;
      return send(200, old);
    }
    return send(404, { message: "Not Found" });
  });
  return { server, state };
}

let stand: ReturnType<typeof standIn>;
let apiUrl: string;
beforeEach(async () => {
  stand = standIn();
  await new Promise<void>((done) => stand.server.listen(0, "127.0.0.1", done));
  apiUrl = `http://127.0.0.1:${(stand.server.address() as AddressInfo).port}`;
});
afterEach(() => new Promise<void>((done) => (stand.server as Server).close(() => done())));

const target = () => ({ apiUrl, token: "t0ken", repository: "acme/api", pullNumber: 7 });
const finding = (rule: string, line: number, message = "changed") => ({
  rule,
  level: "error",
  message,
  where: `Tag.${rule}`,
  location: `spec/Tag.yaml#/${rule}`,
  side: "head",
  pointer: `#/${rule}`,
  source: { file: "spec/Tag.yaml", line },
  operations: [{ operationId: "tags-create", method: "post", path: "/tags.create", where: "body" }],
});
const hunks = parseHunks("--- a/spec/Tag.yaml\n+++ b/spec/Tag.yaml\n@@ -1,40 +1,40 @@\n");
const reviewOf = (findings: ReturnType<typeof finding>[]) =>
  JSON.parse(
    githubReview(
      {
        base: "b",
        head: "h",
        counts: { error: findings.length, warning: 0, info: 0 },
        findings,
        schemas: { added: [], removed: [] },
      } as never,
      { review: { commitId: "abc", hunks } },
    ),
  );

describe("post-review", () => {
  it("updates its own comments, deletes stale ones and adds only new ones on the next push", async () => {
    stand.state.comments.push({
      id: 900,
      path: "spec/Tag.yaml",
      line: 3,
      side: "RIGHT",
      body: "a person's comment",
    });
    const first = await postReview(reviewOf([finding("a", 3), finding("b", 5)]), target());
    expect(first).toMatchObject({ created: 2, updated: 0, deleted: 0 });
    expect(stand.state.reviews).toHaveLength(1);

    // Next push: `a` says something else on the same line, `b` is gone, `c` is new, `d` moved to another line.
    const second = await postReview(reviewOf([finding("a", 3, "changed again"), finding("c", 9)]), target());
    expect(second).toMatchObject({ created: 1, updated: 1, deleted: 1, unchanged: 0 });
    const ours = stand.state.comments.filter((c) => c.body.includes("workapi-contract-diff:comment"));
    expect(ours.map((c) => [c.line, c.body.includes(commentMarker(finding("a", 3)))])).toEqual([
      [3, true],
      [9, false],
    ]);
    expect(ours[0]?.body).toContain("changed again");
    expect(stand.state.comments.find((c) => c.id === 900)?.body).toBe("a person's comment");
    expect(stand.state.reviews[0]?.body).toContain("Superseded");

    // The same report again: nothing new, so no new review: the latest body is updated in place.
    const calls = stand.state.calls.length;
    const third = await postReview(reviewOf([finding("a", 3, "changed again"), finding("c", 9)]), target());
    expect(third).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
      unchanged: 2,
      reviewUpdated: stand.state.reviews[1]?.id,
    });
    expect(stand.state.reviews).toHaveLength(2);
    expect(stand.state.calls.slice(calls).filter((c) => !c.startsWith("GET"))).toEqual([]);

    // A finding that moved to another line is deleted there and commented where it is now.
    const moved = await postReview(reviewOf([finding("a", 4, "changed again"), finding("c", 9)]), target());
    expect(moved).toMatchObject({ created: 1, deleted: 1, unchanged: 1 });
  });

  it("finds its comments past the first page, and stays under the limits GitHub enforces", async () => {
    for (let i = 0; i < 150; i++)
      stand.state.comments.push({
        id: 1000 + i,
        path: "spec/Tag.yaml",
        line: 1,
        side: "RIGHT",
        body: `note ${i}`,
      });
    await postReview(reviewOf([finding("a", 3)]), target());
    const huge = reviewOf([
      finding("a", 3, "m".repeat(200_000)),
      ...Array.from({ length: 80 }, (_, i) => finding(`z${i}`, 300, "n".repeat(2_000))),
    ]);
    const outcome = await postReview(huge, target());
    expect(outcome).toMatchObject({ updated: 1, deleted: 0 });
    for (const c of stand.state.comments) expect(c.body.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    expect(stand.state.comments).toHaveLength(151);
  });

  it("runs from the command line with GitHub's environment, and says why it cannot post", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "post-review-"));
    writeFileSync(join(dir, "review.json"), JSON.stringify(reviewOf([finding("a", 3)])));
    writeFileSync(join(dir, "event.json"), JSON.stringify({ pull_request: { number: 7 } }));
    let out = "";
    const env = {
      GITHUB_TOKEN: "t0ken",
      GITHUB_API_URL: apiUrl,
      GITHUB_REPOSITORY: "acme/api",
      GITHUB_EVENT_PATH: join(dir, "event.json"),
    };
    const io = {
      cwd: dir,
      stdout: (text: string) => (out += text),
      stderr: (text: string) => (out += text),
      env,
    };
    expect(await main(["post-review", "review.json"], io)).toBe(0);
    expect(out).toContain("review posted on acme/api#7: 1 new");
    expect(
      await main(["post-review", "review.json"], { ...io, env: { ...env, GITHUB_TOKEN: "wrong" } }),
    ).toBe(2);
    expect(out).toContain("401");
  });
});
