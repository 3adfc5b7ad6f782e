// Breaks shown with the contract's own examples: the old example request the new schema refuses, the new
// example answer the old schema refuses, validated as the server validates (Ajv, VALIDATOR_OPTIONS).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import { formatReport } from "../src/format/index.js";
import { type Scratch, scratchRepo } from "./support/scratch.js";
import type { Json } from "./support/types.js";

const NOW = new Date("2026-11-25T00:00:00Z");
const doc = (request: Json, response: Json): Json => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {
    "/things": {
      post: {
        operationId: "things-create",
        requestBody: { content: { "application/json": request } },
        responses: { 201: { description: "ok", content: { "application/json": response } } },
      },
    },
  },
});
const thing = (props: Json) => ({ type: "object", properties: props });
const evidenceOf = (base: Json, head: Json) =>
  diffSpecs(fromDocument(base), fromDocument(head), { now: NOW }).findings.map((f) => [f.rule, f.evidence]);

describe("evidence", () => {
  it("shows an old example request the new schema refuses, by its name", () => {
    const request = (name: Json) => ({
      schema: thing({ name }),
      examples: { short: { value: { name: "ab" } }, long: { value: { name: "a long name" } } },
    });
    const response = { schema: thing({ id: { type: "string" } }), example: { id: "T-1" } };
    const [[rule, evidence]] = evidenceOf(
      doc(request({ type: "string" }), response),
      doc(request({ type: "string", maxLength: 5 }), response),
    ) as [[string, Json[]]];
    expect(rule).toBe("request-upper-bound-added");
    expect(evidence).toEqual([
      {
        operationId: "things-create",
        in: "request",
        media: "application/json",
        example: "long",
        refusedBy: "head",
        error: "/name must NOT have more than 5 characters",
      },
    ]);
  });

  it("shows a new example answer the old schema refuses", () => {
    const request = { schema: thing({}) };
    const base = doc(request, { schema: thing({ size: { type: "string" } }), example: { size: "big" } });
    const head = doc(request, { schema: thing({ size: { type: "integer" } }), example: { size: 3 } });
    const [[rule, evidence]] = evidenceOf(base, head) as [[string, Json[]]];
    expect(rule).toBe("response-type-changed");
    expect(evidence).toEqual([
      expect.objectContaining({ in: "response", status: "201", example: "example", refusedBy: "base" }),
    ]);
    expect(evidence[0]?.error).toBe("/size must be string");
  });

  it("shows nothing the examples cannot show: no example, or one its own side refuses", () => {
    const response = { schema: thing({}) };
    const bare = (name: Json) => doc({ schema: thing({ name }) }, response);
    expect(evidenceOf(bare({ type: "string" }), bare({ type: "string", maxLength: 2 }))).toEqual([
      ["request-upper-bound-added", undefined],
    ]);
    const broken = (name: Json) => doc({ schema: thing({ name }), example: { name: 5 } }, response);
    expect(evidenceOf(broken({ type: "string" }), broken({ type: "string", maxLength: 2 }))).toEqual([
      ["request-upper-bound-added", undefined],
    ]);
    // An example that the new schema refuses for another reason than this finding's is no evidence of it.
    const other = (name: Json, extra: Json) =>
      doc({ schema: thing({ name, other: extra }), example: { name: "ab", other: "x" } }, response);
    const findings = evidenceOf(
      other({ type: "string" }, { type: "string" }),
      other({ type: "string", maxLength: 1 }, { type: "integer" }),
    );
    expect(findings).toContainEqual([
      "request-type-changed",
      [expect.objectContaining({ error: "/other must be integer" })],
    ]);
    expect(findings).toContainEqual([
      "request-upper-bound-added",
      [expect.objectContaining({ error: "/name must NOT have more than 1 characters" })],
    ]);
  });
});

describe("evidence on the real contract", () => {
  let s: Scratch;
  beforeEach(() => {
    s = scratchRepo();
  });
  afterEach(() => s.remove());

  it("names works.create's example when its title may be at most 3 characters, in every format", () => {
    const file = "spec/components/schemas/WorksCreateRequest.yaml";
    s.write(file, s.read(file).replace("  title:\n", "  title:\n    maxLength: 3\n"));
    const result = s.cli("HEAD", "--format", "json");
    expect(result.stderr).toBe("");
    const finding = JSON.parse(result.stdout).findings.find(
      (f: Json) => f.rule === "request-upper-bound-added",
    );
    expect(finding.evidence).toEqual([
      {
        operationId: "works-create",
        in: "request",
        media: "application/json",
        example: "example",
        refusedBy: "head",
        error: "/title must NOT have more than 3 characters",
      },
    ]);
    const report = {
      base: "b",
      head: "h",
      counts: { error: 1, warning: 0, info: 0 },
      findings: [finding],
      schemas: { added: [], removed: [] },
    };
    for (const format of ["text", "markdown", "junit", "github", "sarif", "github-review"] as const)
      expect(formatReport(report as never, format)).toMatch(
        /Example `example` \(request body of works-create/,
      );
  });
});
