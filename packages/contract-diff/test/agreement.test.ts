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
});

// Issue 46: the peer's kind of cases decided one by one.
describe("an unreadable mark in the base is an error (issue 46)", () => {
  it("reports an operation's unreadable stability level made readable", () => {
    const before = { "x-stability-level": "gamma", responses: ok };
    for (const after of [{ "x-stability-level": "beta" }, { "x-stability-level": "stable" }, {}])
      expect(found(doc(before), doc({ ...after, responses: ok }))).toEqual([
        "error operation-stability-invalid",
      ]);
  });

  it("reports a property's unreadable stability level made readable, in requests and responses", () => {
    const gamma = prop({ "x-stability-level": "gamma" });
    expect(found(doc(req(gamma)), doc(req(prop({ "x-stability-level": "beta" }))))).toEqual([
      "error property-stability-invalid",
    ]);
    expect(found(doc(res(gamma)), doc(res(prop())))).toEqual(["error property-stability-invalid"]);
  });

  it("reports an unreadable sunset in the base made a date, on operations and parameters", () => {
    const dated = (sunset: string) => ({ deprecated: true, "x-sunset": sunset, responses: ok });
    expect(found(doc(dated("soon")), doc(dated("2999-01-01")))).toEqual([
      "error operation-sunset-brought-forward",
    ]);
    const param = (sunset: string) => ({
      parameters: [
        { name: "q", in: "query", deprecated: true, "x-sunset": sunset, schema: { type: "string" } },
      ],
      responses: ok,
    });
    expect(found(doc(param("2026-13-45")), doc(param("2999-01-01")))).toEqual([
      "error request-parameter-sunset-brought-forward",
    ]);
    // A readable date moved later stays news.
    expect(found(doc(dated("2999-01-01")), doc(dated("2999-06-01")))).toEqual([
      "info operation-sunset-changed",
    ]);
    expect(found(doc(dated("2999-06-01")), doc(dated("2026-12-01")))).toEqual([
      "info operation-sunset-changed",
    ]);
  });
});

describe("parameters travel as text (issue 46)", () => {
  const param = (schema: Json, extra: Json = {}) => ({
    parameters: [{ name: "q", in: "query", schema, ...extra }],
    responses: ok,
  });
  it("takes number -> string on a query, path, header or cookie parameter as a widening", () => {
    for (const where of ["query", "header", "cookie"]) {
      const p = (type: string) => ({
        parameters: [{ name: "q", in: where, schema: { type } }],
        responses: ok,
      });
      expect(found(doc(p("number")), doc(p("string")))).toEqual(["info request-type-generalized"]);
      expect(found(doc(p("boolean")), doc(p("string")))).toEqual(["info request-type-generalized"]);
      // The other way round, a string callers sent may not read as a number.
      expect(found(doc(p("string")), doc(p("integer")))).toEqual(["error request-type-changed"]);
    }
    // A property of a deepObject parameter is text as well.
    const deep = (type: string) =>
      param({ type: "object", properties: { a: { type } } }, { style: "deepObject" });
    expect(found(doc(deep("integer")), doc(deep("string")))).toEqual(["info request-type-generalized"]);
  });

  it("keeps JSON types in a parameter sent as JSON content, and in bodies", () => {
    const json = (type: string) => ({
      parameters: [{ name: "q", in: "query", content: { "application/json": { schema: { type } } } }],
      responses: ok,
    });
    expect(found(doc(json("number")), doc(json("string")))).toEqual(["error request-type-changed"]);
    expect(found(doc(req(prop({ type: "number" }))), doc(req(prop({ type: "string" }))))).toEqual([
      "error request-type-changed",
    ]);
  });

  it("reads a response header changed from number to string as a break, and back as a narrowing", () => {
    const header = (type: string) => ({
      responses: { 200: { description: "ok", headers: { "X-N": { schema: { type } } } } },
    });
    expect(found(doc(header("integer")), doc(header("string")))).toEqual(["error response-type-changed"]);
    expect(found(doc(header("string")), doc(header("integer")))).toEqual(["info response-type-specialized"]);
  });

  it("takes one value made an exploded form list as a widening, its items compared with the old value", () => {
    const one = param({ type: ["string", "integer"] });
    const list = (items: Json, extra: Json = {}) => param({ type: "array", items }, extra);
    expect(found(doc(one), doc(list({ type: ["string", "integer"] })))).toEqual([
      "info request-type-generalized",
    ]);
    expect(found(doc(param({ type: "string" })), doc(list({ type: "string", maxLength: 3 })))).toEqual([
      "error request-upper-bound-added",
      "info request-type-generalized",
    ]);
    // Not exploded (`a,b` is split) or a path parameter (simple style): one value is no list.
    expect(found(doc(param({ type: "string" })), doc(list({ type: "string" }, { explode: false })))).toEqual([
      "error request-items-added",
      "error request-parameter-serialization-changed",
      "error request-type-changed",
    ]);
  });
});

describe("argued in the README (issue 46)", () => {
  it("keeps a pattern added to a read-only property at info for requests", () => {
    const shared = (extra: Json) => ({
      type: "object",
      properties: { id: { type: "string", readOnly: true, ...extra } },
    });
    const both = (schema: Json) => ({
      requestBody: { content: { "application/json": { schema } } },
      responses: { 200: { description: "ok", content: { "application/json": { schema } } } },
    });
    expect(found(doc(both(shared({}))), doc(both(shared({ pattern: "^[a-z]+$" }))))).toEqual([
      "info request-pattern-added",
      "info response-pattern-added",
    ]);
  });

  it("reports a security requirement where there was none, on an operation or globally", () => {
    expect(found(doc({ responses: ok }), doc({ security: [{ key: [] }], responses: ok }))).toEqual([
      "error security-requirement-added",
    ]);
    const global = doc({ responses: ok });
    global.security = [{ key: [] }];
    expect(found(doc({ responses: ok }), global)).toEqual(["error security-requirement-added"]);
  });

  it("reports a pattern removed from a response", () => {
    expect(found(doc(res(prop({ pattern: "^[a-z]+$" }))), doc(res(prop())))).toEqual([
      "error response-pattern-removed",
    ]);
    expect(found(doc(res(prop({ pattern: "^[a-z]+$" }))), doc(res(prop({ pattern: ".*" }))))).toEqual([
      "error response-pattern-removed",
    ]);
  });

  it("reports application/json answered as application/problem+json;q=1", () => {
    expect(
      found(doc(res({ type: "object" })), doc(res({ type: "object" }, "application/problem+json;q=1"))),
    ).toEqual(["error response-media-type-removed", "info response-media-type-added"]);
  });

  it("reports stability lowered in the change that deprecates", () => {
    expect(
      found(
        doc({ responses: ok }),
        doc({ deprecated: true, "x-sunset": "2999-01-01", "x-stability-level": "beta", responses: ok }),
      ),
    ).toEqual(["error operation-stability-decreased", "info operation-deprecated"]);
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
