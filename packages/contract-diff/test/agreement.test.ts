// Where the differ meets the peer (oasdiff) on the cases issue 38 measured: breaks it used to let through,
// and false alarms fixed. The false alarms kept on purpose are pinned too, with the README's reasons.
import { describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import type { Json } from "./support/types.js";

const NOW = new Date("2026-11-25T00:00:00Z");
const ok = { 200: { description: "ok" } };
const schemes = {
  key: { type: "apiKey", in: "header", name: "k" },
  oauth: {
    type: "oauth2",
    flows: { clientCredentials: { tokenUrl: "https://a.example/t", scopes: { read: "r", write: "w" } } },
  },
};
const doc = (op: Json, more: Json = {}): Json => ({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: { "/x": { post: op }, ...more },
  components: { securitySchemes: schemes },
});
const req = (schema: Json, media = "application/json") => ({
  requestBody: { content: { [media]: { schema } } },
  responses: ok,
});
const res = (schema: Json, media = "application/json") => ({
  responses: { 200: { description: "ok", content: { [media]: { schema } } } },
});
const prop = (extra: Json = {}) => ({ type: "object", properties: { a: { type: "string", ...extra } } });
const found = (base: Json, head: Json) =>
  diffSpecs(fromDocument(base), fromDocument(head), { now: NOW, deprecationDays: 0 })
    .findings.map((f) => `${f.level} ${f.rule}`)
    .sort();

describe("breaks the peer fails and we let through before", () => {
  const cases: [string, Json, Json, string[]][] = [
    [
      "a pattern added where an empty one was",
      req(prop({ pattern: "" })),
      req(prop({ pattern: "^[a-z]+$" })),
      ["error request-pattern-added"],
    ],
    [
      "a pattern added where `.*` was",
      req(prop({ pattern: ".*" })),
      req(prop({ pattern: "^[0-9]{4}$" })),
      ["error request-pattern-added"],
    ],
    [
      "a pattern added to a request body",
      req({ type: "string" }),
      req({ type: "string", pattern: "^a" }),
      ["error request-pattern-added"],
    ],
    [
      "an unknown stability level on a changed operation",
      { "x-stability-level": "gamma", responses: ok },
      { "x-stability-level": "gamma", summary: "s", responses: ok },
      ["error operation-stability-invalid"],
    ],
    [
      "an unknown stability level on a property",
      req(prop()),
      req(prop({ "x-stability-level": "gamma" })),
      ["error property-stability-invalid"],
    ],
    [
      "a deprecated operation given an x-sunset that is not a date",
      { deprecated: true, responses: ok },
      { deprecated: true, "x-sunset": "soon", responses: ok },
      ["error operation-sunset-brought-forward"],
    ],
  ];
  it.each(cases)("%s", (_name, before, after, want) => {
    expect(found(doc(before), doc(after))).toEqual(want);
  });

  it("reads the marks of an added operation", () => {
    const added = (op: Json) => found(doc({ responses: ok }), doc({ responses: ok }, { "/y": { get: op } }));
    expect(added({ "x-stability-level": "gamma", responses: ok })).toEqual([
      "error operation-stability-invalid",
      "info operation-added",
    ]);
    expect(added({ deprecated: true, "x-sunset": "next year", responses: ok })).toEqual([
      "error operation-sunset-brought-forward",
      "info operation-added",
    ]);
    expect(
      added({ "x-stability-level": "beta", deprecated: true, "x-sunset": "2027-01-01", responses: ok }),
    ).toEqual(["info operation-added"]);
  });

  it("takes a stability level made readable as info", () => {
    const before = { "x-stability-level": "gamma", responses: ok };
    expect(found(doc(before), doc({ "x-stability-level": "beta", responses: ok }))).toEqual([
      "info operation-stability-increased",
    ]);
  });
});

describe("false alarms fixed", () => {
  it("keeps JSON types out of XML bodies", () => {
    const xml = (schema: Json) => req(schema, "application/xml");
    const findings = diffSpecs(
      fromDocument(doc(xml({ type: "string" }))),
      fromDocument(doc(xml({ type: "object" }))),
      { now: NOW },
    ).findings;
    expect(findings.map((f) => [f.level, f.rule])).toEqual([["info", "request-type-changed"]]);
    expect(findings[0]?.note).toMatch(/XML/);
    // The same change in JSON is still a break.
    expect(found(doc(req({ type: "string" })), doc(req({ type: "object" })))).toEqual([
      "error request-type-changed",
    ]);
  });

  it("matches media types by their essence, parameters aside", () => {
    const json = res({ type: "object" });
    expect(found(doc(json), doc(res({ type: "object" }, "application/json; charset=utf-8")))).toEqual([]);
    expect(found(doc(json), doc(res({ type: "string" }, "Application/JSON;q=1")))).toEqual([
      "error response-type-changed",
    ]);
  });

  it("takes an allOf member removed from a response as info, its contents reported on their own", () => {
    const before = res({ allOf: [prop(), { type: "object", properties: { b: { type: "string" } } }] });
    expect(found(doc(before), doc(res({ allOf: [prop()] })))).toEqual([
      "error response-optional-property-removed",
      "info response-all-of-removed",
    ]);
  });

  it("takes a security requirement added beside the others as another way in", () => {
    const security = (list: Json[]) => ({ security: list, responses: ok });
    expect(found(doc(security([{ key: [] }])), doc(security([{ key: [] }, { oauth: ["read"] }])))).toEqual([
      "info security-alternative-added",
    ]);
    // A requirement where there was none, or one that replaces the only way in, still breaks callers.
    expect(found(doc(security([])), doc(security([{ key: [] }])))).toEqual([
      "error security-requirement-added",
    ]);
    expect(found(doc(security([{ key: [] }])), doc(security([{ oauth: ["read"] }])))).toEqual([
      "error security-requirement-added",
      "info security-requirement-removed",
    ]);
  });
});

describe("differences kept on purpose (README: Where we differ)", () => {
  it("reports a discriminator's property renamed where callers and readers meet it", () => {
    const tagged = (name: string, inResponse: boolean) => {
      const variant = {
        type: "object",
        properties: { [name]: { type: "string" }, x: { type: "string" } },
        required: [name],
      };
      const schema = { oneOf: [{ $ref: "#/components/schemas/V" }], discriminator: { propertyName: name } };
      const d = doc(inResponse ? res(schema) : req(schema));
      d.components.schemas = { V: variant };
      return d;
    };
    expect(found(tagged("kind", true), tagged("type", true))).toEqual([
      "error response-property-removed",
      "info response-property-added",
      "warning discriminator-property-name-changed",
    ]);
    expect(found(tagged("kind", false), tagged("type", false))).toEqual([
      "error request-property-added-required",
      "warning discriminator-property-name-changed",
      "warning request-property-removed-ignored",
    ]);
  });

  const cases: [string, Json, Json, string[]][] = [
    [
      "a maxLength added to a request",
      req({ type: "string" }),
      req({ type: "string", maxLength: 3 }),
      ["error request-upper-bound-added"],
    ],
    [
      "an exclusive minimum added to a request",
      req({ type: "number" }),
      req({ type: "number", exclusiveMinimum: 0 }),
      ["error request-lower-bound-added"],
    ],
    [
      "a required name the schema does not define",
      req(prop()),
      req({ ...prop(), required: ["zz"] }),
      ["error request-property-became-required"],
    ],
    [
      "a variant added to a response anyOf",
      res({ anyOf: [{ type: "string" }] }),
      res({ anyOf: [{ type: "string" }, { type: "integer" }] }),
      ["error response-variant-added"],
    ],
    [
      "a scope added",
      { security: [{ oauth: ["read"] }], responses: ok },
      { security: [{ oauth: ["read", "write"] }], responses: ok },
      ["error security-scope-added"],
    ],
    [
      "application/json answered as application/problem+json",
      res({ type: "object" }),
      res({ type: "object" }, "application/problem+json;q=1"),
      ["error response-media-type-removed", "info response-media-type-added"],
    ],
  ];
  it.each(cases)("%s", (_name, before, after, want) => {
    expect(found(doc(before), doc(after))).toEqual(want);
  });
});
