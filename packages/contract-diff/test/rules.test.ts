// Every rule's given before/after pair triggers that rule at its level, and every change event the pairs
// produce is claimed by some rule.
import { describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import { walkOperations } from "../src/engine/walk-operations.js";
import { RULES } from "../src/rules/index.js";
import { documentsOf } from "./support/given.js";

const NOW = new Date("2026-11-25T00:00:00Z");
const policyOf = (given: { policy?: { deprecationDays?: number } }) => ({
  now: NOW,
  deprecationDays: given.policy?.deprecationDays ?? 0,
});

describe("rules", () => {
  it("have unique ids, a level and a one-line doc", () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(["error", "warning", "info"]).toContain(rule.level);
      expect(rule.doc.length).toBeGreaterThan(10);
      expect(rule.doc).not.toContain("\n");
    }
  });

  it.each(RULES.map((rule) => [rule.id, rule] as const))("%s fires on its given pair", (_id, rule) => {
    const [base, head] = documentsOf(rule.given);
    const report = diffSpecs(fromDocument(base), fromDocument(head), policyOf(rule.given));
    const mine = report.findings.filter((finding) => finding.rule === rule.id);
    expect(mine.map((f) => [f.rule, f.level])).toContainEqual([rule.id, rule.level]);
  });

  it("claim every change event of the given pairs", () => {
    const unclaimed: string[] = [];
    for (const rule of RULES) {
      const [base, head] = documentsOf(rule.given);
      const policy = policyOf(rule.given);
      for (const event of walkOperations(base, head)) {
        const claimed = RULES.some((r) => r.on === event.kind && r.when(event, policy));
        if (!claimed)
          unclaimed.push(`${rule.id}: ${event.kind} ${event.change ?? ""} ${event.direction ?? ""}`);
      }
    }
    expect(unclaimed).toEqual([]);
  });

  it("give one rule per event, so no change is counted twice", () => {
    const doubled: string[] = [];
    for (const rule of RULES) {
      const [base, head] = documentsOf(rule.given);
      const policy = policyOf(rule.given);
      for (const event of walkOperations(base, head)) {
        const claims = RULES.filter((r) => r.on === event.kind && r.when(event, policy)).map((r) => r.id);
        if (claims.length > 1) doubled.push(`${event.kind} ${event.change}: ${claims.join(", ")}`);
      }
    }
    expect(doubled).toEqual([]);
  });
});
