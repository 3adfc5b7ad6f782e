// The contract model every reader of the contract shares: operationsOf, the date reader of `x-sunset` and
// `x-deprecated-at`, and the validator factory.
import { describe, expect, it } from "vitest";
import {
  contractDay,
  HTTP_METHODS,
  jsonPointer,
  loadSpec,
  operationsOf,
  readContractDate,
  resolveRef,
  VALIDATOR_OPTIONS,
} from "../index.js";
import { createAjv } from "../validators.js";

const spec = loadSpec();

describe("operationsOf", () => {
  const operations = operationsOf(spec);

  it("lists one operation per (path, method) pair of the bundle, in document order", () => {
    const pairs = Object.entries(spec.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => `${method} ${path}`),
    );
    expect(operations.map(({ method, path }) => `${method} ${path}`)).toEqual(pairs);
    expect(operations.length).toBeGreaterThan(0);
  });

  it("names each operation by its operationId, once", () => {
    const names = operations.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    for (const operation of operations) {
      expect(operation.name).toBe(operation.operation.operationId);
      expect(operation.interfaceName).toBe(operation.operation["x-interface-name"]);
    }
  });

  it("hands out the document's own objects and the pointers they live at", () => {
    for (const operation of operations) {
      expect(operation.operation).toBe(spec.paths[operation.path]?.[operation.method]);
      expect(operation.pathItem).toBe(spec.paths[operation.path]);
      expect(operation.pointer).toBe(
        `#/paths/${operation.path.replaceAll("~", "~0").replaceAll("/", "~1")}/${operation.method}`,
      );
    }
  });

  it("resolves parameters, the request body and the answers", () => {
    const text = (value: unknown) => JSON.stringify(value);
    let refs = 0;
    for (const operation of operations) {
      const raw = operation.operation;
      expect(operation.parameters).toEqual((raw.parameters ?? []).map((p) => resolveRef(spec, p)));
      for (const parameter of operation.parameters) {
        expect(parameter.$ref).toBeUndefined();
        expect(typeof parameter.name).toBe("string");
      }
      refs += (raw.parameters ?? []).filter((p) => text(p).startsWith('{"$ref"')).length;
      expect(operation.requestBody?.$ref).toBeUndefined();
      expect(Object.keys(operation.responses)).toEqual(Object.keys(raw.responses ?? {}));
      for (const response of Object.values(operation.responses)) expect(response.$ref).toBeUndefined();
    }
    // The bundle shares parameters through components: the model is tested on real references.
    expect(refs).toBeGreaterThan(0);
  });

  it("reads safety from x-safe, and GET as safe without it", () => {
    for (const operation of operations) {
      expect(operation.safe).toBe(operation.operation["x-safe"] === true);
    }
    const [get, post] = operationsOf({
      paths: { "/a": { get: {}, post: {} } },
    });
    expect([get?.safe, post?.safe]).toEqual([true, false]);
  });

  it("reads deprecation, its dates and the stability level", () => {
    const doc = {
      paths: {
        "/old": {
          parameters: [{ $ref: "#/components/parameters/Id" }, { name: "q", in: "query" }],
          post: {
            operationId: "old",
            deprecated: true,
            "x-deprecated-at": "2026-01-15",
            "x-sunset": "2027-06-30T12:00:00Z",
            "x-stability-level": "beta",
            parameters: [{ name: "q", in: "query", description: "the operation's own" }],
            requestBody: { $ref: "#/components/requestBodies/Old" },
            responses: { 200: { $ref: "#/components/responses/Ok" } },
          },
          get: { responses: {} },
        },
      },
      components: {
        parameters: { Id: { name: "id", in: "path", required: true } },
        requestBodies: { Old: { required: true, content: {} } },
        responses: { Ok: { description: "ok" } },
      },
    };
    const [get, post] = operationsOf(doc);
    expect(post).toMatchObject({
      name: "old",
      deprecated: true,
      deprecatedAt: new Date("2026-01-15"),
      sunset: new Date("2027-06-30T12:00:00Z"),
      stability: "beta",
      requestBody: { required: true, content: {} },
      responses: { 200: { description: "ok" } },
    });
    expect(post?.parameters).toEqual([
      { name: "id", in: "path", required: true },
      { name: "q", in: "query", description: "the operation's own" },
    ]);
    expect(get).toMatchObject({ name: "GET /old", deprecated: false, stability: undefined });
    expect(get?.sunset).toBeUndefined();
  });

  it("follows a path item's $ref, lists webhooks when asked, and skips a dangling path item", () => {
    const doc = {
      paths: { "/a": { $ref: "#/components/pathItems/A" }, "/b": { $ref: "#/components/pathItems/None" } },
      webhooks: { ping: { post: { operationId: "ping" } } },
      components: { pathItems: { A: { get: { operationId: "a" } } } },
    };
    expect(operationsOf(doc).map((o) => [o.name, o.pointer])).toEqual([
      ["a", "#/components/pathItems/A/get"],
    ]);
    expect(operationsOf(doc, { webhooks: true }).map((o) => [o.name, o.webhook, o.pointer])).toEqual([
      ["a", false, "#/components/pathItems/A/get"],
      ["ping", true, "#/webhooks/ping/post"],
    ]);
  });

  it("resolves a dangling reference only when it is read", () => {
    const [operation] = operationsOf({ paths: { "/a": { get: { parameters: [{ $ref: "#/nowhere" }] } } } });
    expect(operation?.name).toBe("GET /a");
    expect(() => operation?.parameters).toThrow(/names nothing/);
  });
});

describe("jsonPointer", () => {
  it("decodes URI-encoded segments, and reads a segment that is no valid encoding as written", () => {
    const doc = { paths: { "/a b": 1, "/100%": 2 } };
    expect(jsonPointer(doc, "#/paths/~1a%20b")).toBe(1);
    expect(jsonPointer(doc, "#/paths/~1100%")).toBe(2);
    expect(jsonPointer(doc, "#")).toBe(doc);
  });
});

describe("readContractDate", () => {
  it("reads RFC 3339 dates and date-times", () => {
    expect(readContractDate("2027-06-30")).toEqual(new Date("2027-06-30T00:00:00Z"));
    expect(readContractDate("2027-06-30T23:00:00-05:00")).toEqual(new Date("2027-07-01T04:00:00Z"));
    const date = new Date("2027-01-01");
    expect(readContractDate(date)).toBe(date);
  });

  it("reads anything else as no date", () => {
    for (const value of [undefined, null, "", "soon", "30/06/2027", "2027-13-45", 20270630, new Date("x")])
      expect(readContractDate(value)).toBeUndefined();
  });

  it("gives the day as written", () => {
    expect(contractDay("2027-06-30T23:00:00-05:00")).toBe("2027-06-30");
    expect(contractDay(new Date("2027-06-30T23:00:00Z"))).toBe("2027-06-30");
    expect(contractDay("soon")).toBeUndefined();
    expect(contractDay(undefined)).toBeUndefined();
  });
});

describe("createAjv", () => {
  it("makes each kind of validator with VALIDATOR_OPTIONS, without the meta-schema check", () => {
    for (const kind of ["inputs", "queries", "outputs"] as const) {
      const ajv = createAjv(kind);
      expect(ajv.opts).toMatchObject({ ...VALIDATOR_OPTIONS[kind], validateSchema: false });
    }
    expect(createAjv("inputs", { allErrors: true }).opts.allErrors).toBe(true);
  });

  it("knows JSON Schema 2020-12 and the formats", () => {
    const check = createAjv("outputs").compile({
      type: "object",
      properties: { at: { type: "string", format: "date-time" } },
      unevaluatedProperties: false,
    });
    expect(check({ at: "2027-06-30T12:00:00Z" })).toBe(true);
    expect(check({ at: "yesterday" })).toBe(false);
    expect(check({ at: "2027-06-30T12:00:00Z", other: 1 })).toBe(false);
  });

  it("fills defaults and reads a lone query value as a list, as the server does", () => {
    const input = { type: "object", properties: { limit: { type: "integer", default: 50 } } };
    const body: Record<string, unknown> = {};
    expect(createAjv("inputs").compile(input)(body)).toBe(true);
    expect(body).toEqual({ limit: 50 });
    const query: Record<string, unknown> = { tag: "TAG-1" };
    const list = { type: "object", properties: { tag: { type: "array", items: { type: "string" } } } };
    expect(createAjv("queries").compile(list)(query)).toBe(true);
    expect(query).toEqual({ tag: ["TAG-1"] });
  });

  it("refuses a kind it does not know", () => {
    expect(() => createAjv("other" as "inputs")).toThrow(/no validator options/);
  });
});
