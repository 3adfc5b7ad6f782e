// The console checks an answer against the contract's schema for its status with the page's own small
// validator (src/console/answer-check.js). Its verdicts on the contract's own schemas and examples, located at their
// fields.
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a module of the page's script, plain browser JavaScript without declarations
import * as answerCheck from "../src/console/answer-check.js";

type Problem = { path: Array<string | number>; message: string };
const checker = answerCheck as {
  validate(schema: unknown, value: unknown, schemas: Record<string, unknown>): Problem[];
};
const spec = loadSpec();
const schemas = spec.components.schemas as Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type Operation = { requestBody: unknown; responses: Record<string, unknown> };
const worksCreate = (spec.paths["/works.create"] as unknown as { post: Operation }).post;
const createBody = worksCreate.requestBody as {
  content: { "application/json": { example: Record<string, unknown> } };
};
const example = createBody.content["application/json"].example;

describe("the console's check", () => {
  it("passes the contract's own example of works.create and its 201 answer", () => {
    expect(checker.validate(ref("WorksCreateRequest"), example, schemas)).toEqual([]);
    const created = worksCreate.responses["201"] as {
      content: { "application/json": { example: unknown } };
    };
    expect(
      checker.validate(ref("WorksCreateResponse"), created.content["application/json"].example, schemas),
    ).toEqual([]);
  });

  it("puts each problem at its field", () => {
    const { title: _title, ...untitled } = example;
    expect(checker.validate(ref("WorksCreateRequest"), { ...example, title: "" }, schemas)).toEqual([
      { path: ["title"], message: "must not be empty" },
    ]);
    expect(checker.validate(ref("WorksCreateRequest"), untitled, schemas)).toEqual([
      { path: ["title"], message: "is required" },
    ]);
    const wrong = checker.validate(
      ref("WorksCreateRequest"),
      { ...example, type: "bug", owned_by: [], extra: 1 },
      schemas,
    );
    expect(wrong.map((problem) => problem.path.join("."))).toEqual(["type", "owned_by", "extra"]);
    expect(wrong[0]?.message).toContain('"issue"');
  });

  it("tells types, bounds, formats and list items apart", () => {
    const schema = {
      type: "object",
      properties: {
        n: { type: "integer", minimum: 1, maximum: 3 },
        when: { type: "string", format: "date-time" },
        ids: { type: "array", items: { type: "string", minLength: 2 }, maxItems: 2, uniqueItems: true },
      },
    };
    const problems = checker.validate(schema, { n: 1.5, when: "tomorrow", ids: ["ab", "x", "ab"] }, {});
    expect(problems.map((p) => p.path.join("."))).toEqual(["n", "when", "ids", "ids", "ids.1"]);
    expect(checker.validate(schema, { n: 4 }, {})[0]?.message).toBe("must be at most 3");
    expect(checker.validate(schema, { n: 2, when: "2026-11-20T17:00:00.000Z", ids: ["ab"] }, {})).toEqual([]);
  });

  it("needs exactly one alternative of a oneOf, and reports the closest when none matches", () => {
    const schema = { oneOf: [ref("ErrorUnauthenticated"), ref("ErrorDevOrgDeactivated")] };
    const answer = { type: "dev_org_deactivated", message: "m", detail: "d" };
    expect(checker.validate(schema, answer, schemas)).toEqual([]);
    const problems = checker.validate(schema, { ...answer, message: 5 }, schemas);
    expect(problems).toEqual([{ path: ["message"], message: "must be string, not integer" }]);
  });

  it("applies if/then and refuses the fields no part of the schema names (unevaluatedProperties)", () => {
    const schema = {
      type: "object",
      properties: { kind: { type: "string" } },
      allOf: [{ properties: { a: { type: "string" } } }],
      if: { properties: { kind: { const: "x" } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword
      then: { required: ["a"] },
      unevaluatedProperties: false,
    };
    expect(checker.validate(schema, { kind: "x" }, {})).toEqual([{ path: ["a"], message: "is required" }]);
    expect(checker.validate(schema, { kind: "y", a: "1" }, {})).toEqual([]);
    expect(checker.validate(schema, { kind: "y", b: 1 }, {})).toEqual([
      { path: ["b"], message: "is not a field of this object" },
    ]);
  });
});
