// The generator of src/generated/operations.ts (scripts/generate.mjs), on small contracts made here.
import { describe, expect, it } from "vitest";
import {
  camelCase,
  clientErrorsSource,
  clientOperationsSource,
  clientTables,
  errorTypesByStatus,
  generateClient,
} from "../scripts/generate.mjs";

type Op = Record<string, unknown>;
const read = (name: string, extra: Op = {}): Op => ({
  operationId: name.replaceAll(".", "-"),
  "x-interface-name": name,
  "x-safe": true,
  responses: {},
  ...extra,
});
const doc = (paths: Record<string, Record<string, Op>>) => ({ openapi: "3.1.0", paths });
const both = (name: string, extra: Op = {}) => ({
  get: read(name, extra),
  post: { ...read(name, extra), operationId: `${name.replaceAll(".", "-")}-post` },
});

describe("clientTables", () => {
  it("reads names, safety and pagination, leaving the default cursor names out", () => {
    const tables = clientTables(
      doc({
        "/tags.list": both("tags.list", { "x-pagination": { items: "tags" } }),
        "/stage-diagrams.list": both("stage-diagrams.list", {
          "x-pagination": { items: "result", next_cursor: "cursor" },
        }),
        "/works.delete": { post: { ...read("works.delete"), "x-safe": undefined } },
      }),
    );
    expect(tables.operations.map((op) => [op.name, op.operationId, op.keys, op.pagination])).toEqual([
      [
        "stage-diagrams.list",
        "stage-diagrams-list-post",
        ["stageDiagrams", "list"],
        { items: "result", next: "cursor" },
      ],
      ["tags.list", "tags-list-post", ["tags", "list"], { items: "tags" }],
      ["works.delete", "works-delete", ["works", "delete"], undefined],
    ]);
    expect(tables.safe).toEqual(["stage-diagrams.list", "tags.list"]);
  });

  it("checks the paginated fields against the answer's schema", () => {
    const answer = () => ({
      responses: {
        200: { content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } } },
      },
    });
    const withSchema = (properties: Op) => ({
      ...doc({ "/tags.list": both("tags.list", { ...answer(), "x-pagination": { items: "tags" } }) }),
      components: { schemas: { Page: { type: "object", properties } } },
    });
    expect(() => clientTables(withSchema({ tags: {}, next_cursor: {} }))).not.toThrow();
    expect(() => clientTables(withSchema({ items: {}, next_cursor: {} }))).toThrow(/names tags/);
  });

  it.each([
    [
      "a read without a POST form",
      doc({ "/tags.list": { get: read("tags.list") } }),
      /has no POST operation/,
    ],
    ["a read without a GET form", doc({ "/tags.list": { post: read("tags.list") } }), /has no GET form/],
    [
      "a read whose GET form lacks a flat field of its POST form",
      doc({
        "/tags.list": {
          get: read("tags.list", { parameters: [{ name: "name", in: "query", schema: { type: "string" } }] }),
          post: {
            ...read("tags.list"),
            operationId: "tags-list-post",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { name: { type: "string" }, limit: { type: "integer" } },
                  },
                },
              },
            },
          },
        },
      }),
      /limit is not a query parameter of type integer/,
    ],
    [
      "a read whose GET form takes a list otherwise than comma-separated",
      doc({
        "/tags.list": {
          get: read("tags.list", {
            parameters: [
              {
                name: "name",
                in: "query",
                explode: true,
                schema: { type: "array", items: { type: "string" } },
              },
            ],
          }),
          post: {
            ...read("tags.list"),
            operationId: "tags-list-post",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { name: { type: "array", items: { type: "string" } } },
                  },
                },
              },
            },
          },
        },
      }),
      /name is not a query parameter of type string\[\] \(form, comma-separated\)/,
    ],
    ["a path that is not /<name>", doc({ "/tags/list": { post: read("tags.list") } }), /expects the path/],
    ["a method besides GET and POST", doc({ "/tags.list": { put: read("tags.list") } }), /only GET and POST/],
    [
      "GET and POST forms that disagree on x-safe",
      doc({ "/tags.list": { get: read("tags.list"), post: { ...read("tags.list"), "x-safe": false } } }),
      /disagree on x-safe/,
    ],
    [
      "a name the client uses",
      doc({ "/paginate.all": { post: read("paginate.all") } }),
      /a name the client uses/,
    ],
    [
      "a name that is also a group",
      doc({
        "/stages.custom": { post: read("stages.custom") },
        "/stages.custom.get": { post: read("stages.custom.get") },
      }),
      /collides/,
    ],
    ["a name without a verb", doc({ "/tags": { post: read("tags") } }), /is not <resource>.<verb>/],
    [
      "no x-interface-name",
      doc({ "/tags.list": { post: { ...read("tags.list"), "x-interface-name": undefined } } }),
      /has no x-interface-name/,
    ],
    [
      "x-pagination without items",
      doc({ "/tags.list": both("tags.list", { "x-pagination": {} }) }),
      /needs items/,
    ],
  ])("refuses %s", (_, contract, message) => {
    expect(() => clientTables(contract)).toThrow(message);
  });
});

describe("the generated file", () => {
  const contract = doc({
    "/tags.list": both("tags.list", { "x-pagination": { items: "tags" } }),
    "/observability.sessions.data.get": both("observability.sessions.data.get"),
    "/org-schedule-fragments.create": {
      post: { ...read("org-schedule-fragments.create"), "x-safe": undefined },
    },
  });

  it("writes packages/client/src/generated/operations.ts and errors.ts, each starting with the notice", () => {
    const files = generateClient(contract);
    expect(Object.keys(files)).toEqual([
      "packages/client/src/generated/operations.ts",
      "packages/client/src/generated/errors.ts",
    ]);
    for (const source of Object.values(files)) {
      expect(source.split("\n")[0]).toBe("// Generated by `pnpm generate` from spec/. Do not edit by hand.");
    }
  });

  it("holds the tables and the facade type", () => {
    const source = clientOperationsSource(contract);
    expect(source).toContain(
      'export const operationTree = {\n  observability: { sessions: { data: { get: 1 } } },\n  "org-schedule-fragments": { create: 0 },\n  tags: { list: { items: "tags" } },\n} as const;',
    );
    expect(source).toContain('export interface PaginatedOperations {\n  "tags.list": { items: "tags" };\n}');
    expect(source).toContain('list: PaginatedOperation<"tags-list-post", "tags", T>;');
    expect(source).toContain('create: Operation<"org-schedule-fragments-create", T>;');
    expect(source).toMatch(
      /observability: \{\n {4}sessions: \{\n {6}data: \{\n[\s\S]*get: Operation<"observability-sessions-data-get-post", T>;/,
    );
  });

  it("camelCases each segment as the runtime does", () => {
    expect(camelCase("org-schedule-fragments")).toBe("orgScheduleFragments");
    expect(camelCase("tags")).toBe("tags");
    expect(camelCase("dev-users2-x")).toBe("devUsers2X");
  });
});

describe("errorTypesByStatus", () => {
  const body = (...types: string[]) => ({
    type: "object",
    properties: { type: { type: "string", enum: types } },
  });
  const answers = (responses: Record<string, unknown>) =>
    doc({ "/tags.list": { get: read("tags.list", { responses }) } });
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

  it("gives each error status the first type its body names, through oneOf and $ref", () => {
    const contract = {
      ...answers({
        "200": json({ type: "object" }),
        "404": json(body("not_found")),
        "400": { $ref: "#/components/responses/BadRequest" },
      }),
      components: {
        responses: {
          BadRequest: json({ oneOf: [body("bad_request", "parse_error"), body("invalid_field")] }),
        },
      },
    };
    expect([...errorTypesByStatus(contract)]).toEqual([
      [400, "bad_request"],
      [404, "not_found"],
    ]);
  });

  it("writes the client's table without the statuses whose type is their class's fallback", () => {
    const contract = answers({
      "400": json(body("bad_request")),
      "404": json(body("not_found")),
      "503": json(body("service_unavailable")),
    });
    const source = clientErrorsSource(contract);
    expect(source).toContain('= {\n  404: "not_found",\n};');
  });

  it("refuses a status whose answers stand for two types", () => {
    const contract = doc({
      "/tags.list": { get: read("tags.list", { responses: { "401": json(body("unauthenticated")) } }) },
      "/tags.get": { get: read("tags.get", { responses: { "401": json(body("token_expired")) } }) },
    });
    expect(() => errorTypesByStatus(contract)).toThrow(
      "401 answers stand for both unauthenticated and token_expired",
    );
  });
});
