// The github-review output: comments on the exact lines of the split spec (the base side for what a change
// removed), findings outside the diff folded into the body, GitHub's size limits; and the changeset command.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import { fit, GITHUB_LIMIT, githubReview, REVIEW_MARKER } from "../src/format/github-review.js";
import { parseHunks } from "../src/load/hunks.js";
import { type Scratch, scratchRepo, TAG } from "./support/scratch.js";

let s: Scratch;
beforeEach(() => {
  s = scratchRepo();
});
afterEach(() => s.remove());

type Review = {
  commit_id: string;
  body: string;
  event: string;
  comments: { path: string; line: number; side: string; body: string }[];
};
const reviewOf = (...args: string[]) => {
  const result = s.cli(...args, "--format", "github-review");
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as Review;
};
const lineOf = (text: string, needle: string) => text.split("\n").indexOf(needle) + 1;

describe("github-review", () => {
  it("comments on the removed line of Tag.yaml on the base side", () => {
    const before = s.read(TAG);
    s.removeTagDescription();
    s.commit("drop Tag.description");
    const review = reviewOf("HEAD~1", "HEAD");
    expect(review.event).toBe("COMMENT");
    expect(review.commit_id).toBe(s.git("rev-parse", "HEAD").trim());
    const comment = review.comments.find((c) => c.body.includes("response-optional-property-removed"));
    expect(comment).toMatchObject({ path: TAG, side: "LEFT", line: lineOf(before, "      description:") });
    expect(comment?.body).toContain("<!-- workapi-contract-diff:comment response-optional-property-removed");
    expect(review.body).toContain(REVIEW_MARKER);
  });

  it("comments on an added line on the head side, from the working tree", () => {
    s.addTagColour();
    const review = reviewOf("HEAD");
    const comment = review.comments.find((c) => c.body.includes("response-property-added"));
    expect(comment).toMatchObject({ path: TAG, side: "RIGHT" });
    expect(s.read(TAG).split("\n")[(comment?.line ?? 0) - 1]).toMatch(/properties:|colour:/);
  });

  it("folds a finding whose line is outside the diff into the body, and every finding from files", () => {
    const doc = (extra: object) => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/x": {
          get: {
            responses: {
              200: {
                description: "ok",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { a: { type: "string" }, ...extra } },
                  },
                },
              },
            },
          },
        },
      },
    });
    const report = diffSpecs(fromDocument(doc({ b: { type: "string" } })), fromDocument(doc({})));
    const placed = {
      ...report,
      findings: report.findings.map((f) => ({ ...f, source: { file: "spec/x.yaml", line: 40 } })),
    };
    const inside = JSON.parse(
      githubReview(placed, {
        review: { hunks: parseHunks("--- a/spec/x.yaml\n+++ b/spec/x.yaml\n@@ -38,5 +38,4 @@\n") },
      }),
    );
    expect(inside.comments).toHaveLength(1);
    expect(inside.comments[0]).toMatchObject({ path: "spec/x.yaml", line: 40, side: "RIGHT" });
    const outside = JSON.parse(
      githubReview(placed, {
        review: { hunks: parseHunks("--- a/spec/x.yaml\n+++ b/spec/x.yaml\n@@ -1,3 +1,3 @@\n") },
      }),
    );
    expect(outside.comments).toEqual([]);
    expect(outside.body).toContain("Outside the lines this pull request changes");
    expect(outside.body).toContain("response-optional-property-removed");
  });

  it("keeps the body and every comment under GitHub's 65,536 characters, saying what was cut", () => {
    const long = "x".repeat(80_000);
    const cut = fit(long);
    expect(cut.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    expect(cut).toMatch(/characters of this comment were cut/);
    expect(fit("short")).toBe("short");
    const finding = (i: number, line: number) => ({
      rule: "response-property-removed",
      level: "error",
      message: `${"a long message ".repeat(200)}${i}`,
      where: `Thing.p${i}`,
      location: `spec/x.yaml#/p${i}`,
      side: "head",
      pointer: `#/p${i}`,
      source: { file: "spec/x.yaml", line },
      operations: [{ operationId: "x", method: "get", path: "/x", where: "response(200)" }],
    });
    const huge = { ...finding(0, 5), message: "m".repeat(100_000) };
    const report = {
      base: "b",
      head: "h",
      counts: { error: 61, warning: 0, info: 0 },
      schemas: { added: [], removed: [] },
      findings: [huge, ...Array.from({ length: 60 }, (_, i) => finding(i + 1, 500))],
    };
    const review = JSON.parse(
      githubReview(report as never, {
        review: { hunks: parseHunks("--- a/spec/x.yaml\n+++ b/spec/x.yaml\n@@ -1,9 +1,9 @@\n") },
      }),
    );
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0].body.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    expect(review.comments[0].body).toMatch(
      /cut to stay under GitHub's 65,536-character limit[\s\S]*<!-- workapi-contract-diff:comment/,
    );
    expect(review.body.length).toBeLessThanOrEqual(GITHUB_LIMIT);
    expect(review.body).toMatch(/\d+ more findings did not fit/);
  });
});

describe("changeset", () => {
  it("writes the major the removal needs, after which the gate passes", () => {
    s.removeTagDescription();
    s.commit("drop Tag.description");
    expect(s.cli("HEAD~1", "--gate", "--format", "text").stdout).toContain("workapi-contract-diff changeset");
    const written = s.cli("changeset", "HEAD~1", "--name", "drop-description");
    expect(written.stderr).toBe("");
    expect(written.stdout).toContain(".changeset/drop-description.md: major");
    const text = s.read(".changeset/drop-description.md");
    expect(text).toMatch(/^---\n"@workapi\/spec": major\n"@workapi\/types": major\n---\n/);
    expect(text).toContain("tags-create");
    expect(text).toContain("optional property removed");
    const gate = s.cli("HEAD~1", "--gate", "--format", "text");
    expect(gate.status).toBe(0);
    expect(gate.stdout).toContain("Gate: passed");
  });

  it("writes a minor for an addition, and nothing when nothing changed", () => {
    s.addTagColour();
    expect(s.cli("changeset", "HEAD", "--name", "colour").stdout).toContain("minor");
    expect(s.read(".changeset/colour.md")).toMatch(/"@workapi\/spec": minor/);
    s.git("checkout", "--", "spec");
    const none = s.cli("changeset", "HEAD", "--name", "nothing");
    expect(none.stdout).toContain("No changeset written");
  });
});
