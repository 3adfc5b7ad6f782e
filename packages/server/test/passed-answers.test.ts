// Development's memory of answers that passed the contract check: by operation and status, and bounded.
import { describe, expect, it } from "vitest";
import { PassedAnswers } from "../src/core/contract.js";

describe("PassedAnswers", () => {
  it("remembers an answer for the operation and status it passed, not for others", () => {
    const answers = new PassedAnswers();
    const works = answers.of("works-get");
    works.add(200, '{"work":{}}');
    expect(works.has(200, '{"work":{}}')).toBe(true);
    expect(works.has(201, '{"work":{}}')).toBe(false);
    expect(works.has(200, '{"work":{"id":"1"}}')).toBe(false);
    expect(answers.of("tags-get").has(200, '{"work":{}}')).toBe(false);
  });

  it("forgets the oldest answers once it holds more text than its bound", () => {
    const answers = new PassedAnswers(100);
    const op = answers.of("tags-list");
    const texts = Array.from({ length: 12 }, (_, i) => `{"n":${String(i).padStart(3, "0")}}`); // 9 chars each
    for (const text of texts) op.add(200, text);
    expect(answers.chars).toBeLessThanOrEqual(100);
    expect(op.has(200, texts[0] as string)).toBe(false);
    expect(op.has(200, texts[11] as string)).toBe(true);
    expect(texts.filter((text) => op.has(200, text))).toHaveLength(11);
  });

  it("never remembers an answer longer than a tenth of its bound", () => {
    const answers = new PassedAnswers(100);
    const op = answers.of("works-export");
    op.add(200, "x".repeat(11));
    expect(op.has(200, "x".repeat(11))).toBe(false);
    expect(answers.chars).toBe(0);
  });
});
