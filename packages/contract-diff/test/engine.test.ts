// The engine on the cases reviewers trip on: what breaks and what does not, where a finding points, and
// how one change to a shared schema is reported once.
import { describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import { documentsOf } from "./support/given.js";
import type { Json } from "./support/types.js";

const NOW = new Date("2026-11-25T00:00:00Z");
const diff = (base: Json, head: Json, deprecationDays = 0) =>
  diffSpecs(fromDocument(base), fromDocument(head), { now: NOW, deprecationDays });
function first<T>(items: T[]): T {
  const [item] = items;
  if (item === undefined) throw new Error("no finding");
  return item;
}
const levels = (report: ReturnType<typeof diff>) => report.findings.map((f) => `${f.level} ${f.rule}`).sort();
const str = { type: "string" };
const ok = { 200: { description: "ok" } };

const doc = (paths: Json, extra: Json = {}): Json => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths,
  ...extra,
});

describe("what breaks and what does not", () => {
  const cases: [string, Json, string[]][] = [
    [
      "allOf added to a request body",
      { request: [{ type: "object" }, { type: "object", allOf: [{ required: ["a"] }] }] },
      ["error request-all-of-added", "error request-property-became-required"],
    ],
    [
      "a oneOf variant added to a response",
      {
        response: [
          { oneOf: [{ title: "A", type: "string" }] },
          {
            oneOf: [
              { title: "A", type: "string" },
              { title: "B", type: "integer" },
            ],
          },
        ],
      },
      ["error response-variant-added"],
    ],
    [
      "a response minimum lowered",
      {
        response: [
          { type: "integer", minimum: 5 },
          { type: "integer", minimum: 1 },
        ],
      },
      ["error response-lower-bound-lowered"],
    ],
    [
      "an x-extensible-enum value removed from a request",
      {
        request: [
          { type: "string", "x-extensible-enum": ["a", "b"] },
          { type: "string", "x-extensible-enum": ["a"] },
        ],
      },
      ["error request-extensible-enum-value-removed"],
    ],
    [
      "a parameter default changed",
      {
        parameter: [
          { name: "n", in: "query", schema: { type: "integer", default: 5 } },
          { name: "n", in: "query", schema: { type: "integer", default: 9 } },
        ],
      },
      ["error request-parameter-default-changed"],
    ],
    [
      "a required property added inside then",
      {
        request: [
          { type: "object", if: { required: ["a"] }, then: { required: ["b"] } },
          { type: "object", if: { required: ["a"] }, then: { required: ["b", "c"] } },
        ],
      },
      ["error request-property-became-required"],
    ],
    [
      "a required property added inside else",
      {
        request: [
          { type: "object", if: { required: ["a"] }, else: {} },
          { type: "object", if: { required: ["a"] }, else: { required: ["c"] } },
        ],
      },
      ["error request-property-became-required"],
    ],
    [
      "a security requirement removed",
      {
        operation: [
          { security: [{ key: [] }], responses: ok },
          { security: [], responses: ok },
        ],
      },
      ["info security-requirement-removed"],
    ],
    [
      "a scope removed",
      {
        operation: [
          { security: [{ oauth: ["read", "write"] }], responses: ok },
          { security: [{ oauth: ["read"] }], responses: ok },
        ],
      },
      ["info security-scope-removed"],
    ],
    [
      "a pattern made more general",
      {
        request: [
          { type: "string", pattern: "^[0-9]{3}$" },
          { type: "string", pattern: "^[0-9]{2,4}$" },
        ],
      },
      ["info request-pattern-generalized"],
    ],
    [
      "a required read-only property added to a request",
      {
        request: [
          { type: "object", properties: { a: str } },
          {
            type: "object",
            properties: { a: str, id: { type: "string", readOnly: true } },
            required: ["id"],
          },
        ],
      },
      ["info request-property-added-optional"],
    ],
    [
      "a deprecated operation removed (no minimum period)",
      { operation: [{ deprecated: true, responses: ok }, undefined] },
      ["info operation-added", "info operation-removed-after-sunset"],
    ],
    [
      "OpenAPI 3.0 nullable added to a response",
      { response: [{ type: "string" }, { type: "string", nullable: true }] },
      ["error response-became-nullable"],
    ],
  ];
  it.each(cases)("%s", (_name, given, want) => {
    const [base, head] = documentsOf(given);
    expect(levels(diff(base, head))).toEqual(want.sort());
  });

  it("reports a deprecated operation removed before its sunset, and one deprecated without a date under a policy", () => {
    const [base, head] = documentsOf({
      operation: [{ deprecated: true, "x-sunset": "2027-06-01", responses: ok }, undefined],
    });
    expect(levels(diff(base, head))).toEqual(["error operation-removed", "info operation-added"]);
    const [b2, h2] = documentsOf({ operation: [{ deprecated: true, responses: ok }, undefined] });
    expect(levels(diff(b2, h2, 30))).toEqual(["error operation-removed", "info operation-added"]);
  });

  it("keeps a renamed path parameter the same operation", () => {
    const param = (name: string) => ({ name, in: "path", required: true, schema: str });
    const base = doc({ "/works/{id}": { get: { parameters: [param("id")], responses: ok } } });
    const head = doc({ "/works/{workId}": { get: { parameters: [param("workId")], responses: ok } } });
    expect(diff(base, head).findings).toEqual([]);
  });

  it("reports changes to alpha and beta operations as info", () => {
    const op = (stability: string, schema: Json) => ({
      "x-stability-level": stability,
      responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
    });
    for (const stability of ["alpha", "beta"]) {
      const base = doc({
        "/a": { get: op(stability, { type: "object", properties: { x: str }, required: ["x"] }) },
      });
      const head = doc({ "/a": { get: op(stability, { type: "object", properties: {} }) } });
      const report = diff(base, head);
      expect(report.counts.error).toBe(0);
      expect(first(report.findings).note).toMatch(/alpha or beta/);
    }
  });
});

describe("findings where they happen", () => {
  const shared = (tag: Json) =>
    doc(
      Object.fromEntries(
        ["/tags.get", "/tags.list", "/tags.create"].map((path) => [
          path,
          {
            post: {
              operationId: path.slice(1),
              responses: {
                200: {
                  description: "ok",
                  content: { "application/json": { schema: { $ref: "#/components/schemas/Tag" } } },
                },
              },
            },
          },
        ]),
      ),
      { components: { schemas: { Tag: tag } } },
    );

  it("reports a change to a shared schema once, with every operation it reaches", () => {
    const base = shared({ type: "object", properties: { id: str, name: str }, required: ["id", "name"] });
    const head = shared({ type: "object", properties: { id: str }, required: ["id"] });
    const report = diff(base, head);
    expect(report.findings).toHaveLength(1);
    const finding = first(report.findings);
    expect(finding.rule).toBe("response-property-removed");
    expect(finding.where).toBe("Tag.name");
    expect(finding.operations.map((o) => o.operationId).sort()).toEqual([
      "tags.create",
      "tags.get",
      "tags.list",
    ]);
    expect(first(finding.operations).where).toBe("response(200).name");
  });

  it("names the file and line the loader reports for the finding's node", () => {
    const base = shared({ type: "object", properties: { id: str, name: str }, required: ["id", "name"] });
    const head = shared({ type: "object", properties: { id: str }, required: ["id"] });
    const origin = (pointer: string) =>
      pointer.startsWith("#/components/schemas/Tag")
        ? {
            file: "spec/components/schemas/Tag.yaml",
            line: 3,
            pointer: pointer.replace("#/components/schemas/Tag", "#"),
          }
        : undefined;
    const report = diffSpecs(
      { document: base, label: "base", origin },
      { document: head, label: "head", origin },
      { now: NOW },
    );
    expect(first(report.findings).source).toEqual({
      file: "spec/components/schemas/Tag.yaml",
      line: 3,
      pointer: "#/properties",
    });
    expect(first(report.findings).location).toBe("spec/components/schemas/Tag.yaml#/properties");
  });

  it("ends on circular schemas", () => {
    const node = (extra: Json) => ({
      type: "object",
      properties: { child: { $ref: "#/components/schemas/Node" }, ...extra },
    });
    const base = shared({ $ref: "#/components/schemas/Node" });
    const head = shared({ $ref: "#/components/schemas/Node" });
    base.components.schemas.Node = node({});
    head.components.schemas.Node = node({ extra: str });
    const report = diff(base, head);
    expect(report.findings.map((f) => f.rule)).toEqual(["response-property-added"]);
  });
});
