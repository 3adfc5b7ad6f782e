// Every rule of the catalogue, proven on the committed bundle: each case takes the real contract as the base
// and a copy with one targeted edit as the head (a few cases edit both, when the committed contract has no
// instance of the shape the rule is about, such as a tuple), and wants the rule reported on a named operation
// and no rule it does not expect.
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { diffContracts, RULES } from "../src/index.js";

// biome-ignore lint/suspicious/noExplicitAny: the cases edit an untyped JSON document by path.
type Node = Record<string, any>;
type Doc = Node;
type Case = {
  rule: string;
  operation: string;
  head?: (doc: Doc) => void;
  base?: (doc: Doc) => void;
  /** Edits both sides (the shape the rule needs), before `base` and `head`. */
  both?: (doc: Doc) => void;
  /** Other rules the same edit rightly reports. */
  also?: string[];
};

const schemas = (d: Doc): Node => d.components.schemas;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const operation = (d: Doc, path: string, method = "post"): Node => d.paths[path][method];
const create = (d: Doc) => operation(d, "/works.create");
const get = (d: Doc) => operation(d, "/works.get", "get");
const list = (d: Doc) => operation(d, "/works.list", "get");
const createBody = (d: Doc): Node => schemas(d).WorksCreateRequest;
const createField = (d: Doc, name: string): Node => createBody(d).properties[name];
const getBody = (d: Doc): Node => schemas(d).WorksGetResponse;
/** A string every record in a response carries (BaseRecord is only ever answered). */
const displayId = (d: Doc): Node => schemas(d).BaseRecord.properties.display_id;
const param = (d: Doc, name: string): Node => list(d).parameters.find((p: Node) => p.name === name);
const open = (d: Doc) => Reflect.deleteProperty(createBody(d), "additionalProperties");
const tuple = (positions: number) => ({
  type: "array",
  prefixItems: Array(positions).fill({ type: "integer" }),
});

const cases: Case[] = [
  {
    rule: "operation-added",
    operation: "works-archive",
    head: (d) => {
      d.paths["/works.archive"] = {
        post: { operationId: "works-archive", responses: { "200": { description: "ok" } } },
      };
    },
  },
  {
    rule: "operation-removed",
    operation: "works-get",
    head: (d) => Reflect.deleteProperty(d.paths, "/works.get"),
  },
  {
    rule: "method-removed",
    operation: "works-list",
    head: (d) => Reflect.deleteProperty(d.paths["/works.list"], "get"),
  },
  { rule: "security-alternative-removed", operation: "works-get", head: (d) => get(d).security.pop() },
  {
    rule: "security-alternative-added",
    operation: "works-get",
    head: (d) => get(d).security.push({ bearer: ["work:admin"] }),
  },
  {
    rule: "pagination-added",
    operation: "works-get",
    head: (d) => {
      get(d)["x-pagination"] = { items: "works" };
    },
  },
  {
    rule: "pagination-removed",
    operation: "works-list",
    head: (d) => Reflect.deleteProperty(list(d), "x-pagination"),
  },
  {
    rule: "pagination-changed",
    operation: "works-list",
    head: (d) => {
      list(d)["x-pagination"] = { items: "items" };
    },
  },
  {
    rule: "request-parameter-added-required",
    operation: "works-get",
    head: (d) =>
      get(d).parameters.push({ name: "org", in: "query", required: true, schema: { type: "string" } }),
  },
  {
    rule: "request-parameter-added-optional",
    operation: "works-get",
    head: (d) => get(d).parameters.push({ name: "fields", in: "query", schema: { type: "string" } }),
  },
  {
    rule: "request-parameter-removed",
    operation: "works-list",
    head: (d) => {
      list(d).parameters = list(d).parameters.filter((p: Node) => p.name !== "vista");
    },
  },
  {
    rule: "request-parameter-became-required",
    operation: "works-list",
    head: (d) => Object.assign(param(d, "vista"), { required: true }),
  },
  {
    rule: "request-parameter-became-optional",
    operation: "works-get",
    head: (d) => Object.assign(get(d).parameters[0], { required: false }),
  },
  {
    rule: "request-body-added-required",
    operation: "works-get",
    head: (d) => {
      get(d).requestBody = {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      };
    },
  },
  {
    rule: "request-body-added-optional",
    operation: "works-get",
    head: (d) => {
      get(d).requestBody = { content: { "application/json": { schema: { type: "object" } } } };
    },
  },
  {
    rule: "request-body-removed",
    operation: "works-create",
    head: (d) => Reflect.deleteProperty(create(d), "requestBody"),
  },
  {
    rule: "request-body-became-required",
    operation: "works-create",
    base: (d) => Object.assign(create(d).requestBody, { required: false }),
  },
  {
    rule: "request-body-became-optional",
    operation: "works-create",
    head: (d) => Object.assign(create(d).requestBody, { required: false }),
  },
  { rule: "request-body-closed", operation: "works-create", base: open },
  { rule: "request-body-opened", operation: "works-create", head: open },
  {
    rule: "request-media-type-added",
    operation: "works-create",
    head: (d) => {
      create(d).requestBody.content["multipart/form-data"] = { schema: ref("WorksCreateRequest") };
    },
  },
  {
    rule: "request-media-type-removed",
    operation: "artifacts-upload",
    head: (d) =>
      Reflect.deleteProperty(operation(d, "/artifacts.upload").requestBody.content, "multipart/form-data"),
  },
  {
    rule: "request-property-added-required",
    operation: "works-create",
    head: (d) => {
      createBody(d).properties.note = { type: "string" };
      createBody(d).required.push("note");
    },
  },
  {
    rule: "request-property-added-optional",
    operation: "works-create",
    head: (d) => {
      createBody(d).properties.note = { type: "string" };
    },
  },
  {
    rule: "request-property-removed",
    operation: "works-create",
    head: (d) => Reflect.deleteProperty(createBody(d).properties, "body"),
  },
  {
    rule: "request-property-removed-ignored",
    operation: "works-create",
    both: open,
    head: (d) => Reflect.deleteProperty(createBody(d).properties, "body"),
  },
  {
    rule: "request-property-became-required",
    operation: "works-create",
    head: (d) => createBody(d).required.push("body"),
  },
  {
    rule: "request-property-became-optional",
    operation: "works-create",
    head: (d) => {
      createBody(d).required = createBody(d).required.filter((name: string) => name !== "title");
    },
  },
  {
    rule: "request-type-changed",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "body"), { type: "integer" }),
  },
  {
    rule: "request-type-widened",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "body"), { type: ["string", "null"] }),
  },
  {
    rule: "request-enum-added",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "body"), { enum: ["a", "b"] }),
  },
  // WorkType is both sent (works.create, filters) and answered (Work.type): one edit, both directions.
  {
    rule: "request-enum-removed",
    operation: "works-create",
    head: (d) => Reflect.deleteProperty(schemas(d).WorkType, "enum"),
    also: ["response-enum-removed"],
  },
  {
    rule: "request-enum-value-added",
    operation: "works-create",
    head: (d) => schemas(d).WorkType.enum.push("epic"),
    also: ["response-enum-value-added"],
  },
  {
    rule: "request-enum-value-removed",
    operation: "works-create",
    head: (d) => schemas(d).WorkType.enum.pop(),
    also: ["response-enum-value-removed"],
  },
  {
    rule: "request-bound-tightened",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "title"), { minLength: 3 }),
  },
  {
    rule: "request-bound-loosened",
    operation: "works-create",
    head: (d) => Reflect.deleteProperty(createField(d, "title"), "minLength"),
  },
  {
    rule: "request-format-added",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "external_ref"), { format: "uri" }),
  },
  {
    rule: "request-format-changed",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "target_close_date"), { format: "date" }),
  },
  {
    rule: "request-format-removed",
    operation: "works-create",
    head: (d) => Reflect.deleteProperty(createField(d, "target_close_date"), "format"),
  },
  {
    rule: "request-pattern-added",
    operation: "works-create",
    head: (d) => Object.assign(createField(d, "external_ref"), { pattern: "^[a-z]+-[0-9]+$" }),
  },
  {
    rule: "request-pattern-changed",
    operation: "auth-tokens-create",
    head: (d) => Object.assign(schemas(d).AuthTokensCreateRequest.properties.scope, { pattern: "^\\S+$" }),
  },
  {
    rule: "request-pattern-removed",
    operation: "auth-tokens-create",
    head: (d) => Reflect.deleteProperty(schemas(d).AuthTokensCreateRequest.properties.scope, "pattern"),
  },
  {
    rule: "request-variant-added",
    operation: "works-export-post",
    head: (d) => schemas(d).DateFilter.oneOf.push(ref("CustomSchemaSpec")),
  },
  {
    rule: "request-variant-removed",
    operation: "works-export-post",
    head: (d) => schemas(d).DateFilter.oneOf.pop(),
  },
  {
    rule: "request-position-added",
    operation: "works-create",
    base: (d) => {
      createBody(d).properties.span = tuple(1);
    },
    head: (d) => {
      createBody(d).properties.span = tuple(2);
    },
  },
  {
    rule: "request-position-removed",
    operation: "works-create",
    base: (d) => {
      createBody(d).properties.span = tuple(2);
    },
    head: (d) => {
      createBody(d).properties.span = tuple(1);
    },
  },
  {
    rule: "response-success-status-added",
    operation: "works-create",
    head: (d) => {
      create(d).responses["200"] = create(d).responses["201"];
    },
  },
  {
    rule: "response-success-status-removed",
    operation: "works-create",
    head: (d) => {
      create(d).responses["200"] = create(d).responses["201"];
      Reflect.deleteProperty(create(d).responses, "201");
    },
    also: ["response-success-status-added"],
  },
  {
    rule: "response-media-type-added",
    operation: "works-get",
    head: (d) => {
      get(d).responses["200"].content["application/x-ndjson"] = { schema: ref("WorksGetResponse") };
    },
  },
  {
    rule: "response-media-type-removed",
    operation: "works-get",
    head: (d) => Reflect.deleteProperty(get(d).responses["200"].content, "application/json"),
  },
  {
    rule: "response-property-added",
    operation: "works-get",
    head: (d) => {
      getBody(d).properties.etag = { type: "string" };
    },
  },
  {
    rule: "response-property-removed",
    operation: "works-get",
    head: (d) => {
      Reflect.deleteProperty(getBody(d).properties, "work");
      getBody(d).required = [];
    },
  },
  {
    rule: "response-property-became-optional",
    operation: "works-get",
    head: (d) => getBody(d).required.pop(),
  },
  {
    rule: "response-property-became-required",
    operation: "works-list",
    head: (d) => schemas(d).WorksListResponse.required.push("next_cursor"),
  },
  {
    rule: "response-type-changed",
    operation: "works-get",
    head: (d) => Object.assign(displayId(d), { type: "integer" }),
  },
  {
    rule: "response-type-narrowed",
    operation: "works-get",
    base: (d) => Object.assign(displayId(d), { type: ["string", "null"] }),
  },
  {
    rule: "response-enum-added",
    operation: "works-get",
    head: (d) => Object.assign(displayId(d), { enum: ["ISS-1"] }),
  },
  // The response-only enum rules need an enum that is only ever answered: one is added to display_id.
  {
    rule: "response-enum-removed",
    operation: "works-get",
    base: (d) => Object.assign(displayId(d), { enum: ["ISS-1"] }),
  },
  {
    rule: "response-enum-value-added",
    operation: "works-get",
    both: (d) => Object.assign(displayId(d), { enum: ["ISS-1"] }),
    head: (d) => displayId(d).enum.push("ISS-2"),
  },
  {
    rule: "response-enum-value-removed",
    operation: "works-get",
    both: (d) => Object.assign(displayId(d), { enum: ["ISS-1", "ISS-2"] }),
    head: (d) => displayId(d).enum.pop(),
  },
  {
    rule: "response-bound-tightened",
    operation: "works-get",
    head: (d) => Object.assign(displayId(d), { maxLength: 32 }),
  },
  {
    rule: "response-bound-loosened",
    operation: "works-get",
    base: (d) => Object.assign(displayId(d), { maxLength: 32 }),
  },
  {
    rule: "response-format-added",
    operation: "works-get",
    head: (d) => Object.assign(displayId(d), { format: "uri" }),
  },
  {
    rule: "response-format-changed",
    operation: "works-get",
    head: (d) => Object.assign(schemas(d).BaseRecord.properties.created_date, { format: "date" }),
  },
  {
    rule: "response-format-removed",
    operation: "works-get",
    head: (d) => Reflect.deleteProperty(schemas(d).BaseRecord.properties.created_date, "format"),
  },
  {
    rule: "response-pattern-added",
    operation: "works-get",
    head: (d) => Object.assign(displayId(d), { pattern: "^[A-Z]+-[0-9]+$" }),
  },
  {
    rule: "response-pattern-changed",
    operation: "works-get",
    base: (d) => Object.assign(displayId(d), { pattern: "^[A-Z]+-[0-9]+$" }),
    head: (d) => Object.assign(displayId(d), { pattern: "^[A-Z]{2,}-[0-9]+$" }),
  },
  {
    rule: "response-pattern-removed",
    operation: "works-get",
    base: (d) => Object.assign(displayId(d), { pattern: "^[A-Z]+-[0-9]+$" }),
  },
  {
    rule: "response-variant-added",
    operation: "observability-sessions-data-get",
    head: (d) => schemas(d).ObservabilitySessionRecording.oneOf.push(ref("Work")),
  },
  {
    rule: "response-variant-removed",
    operation: "observability-sessions-data-get",
    head: (d) => schemas(d).ObservabilitySessionRecording.oneOf.pop(),
  },
  {
    rule: "response-position-added",
    operation: "works-get",
    base: (d) => {
      getBody(d).properties.span = tuple(1);
    },
    head: (d) => {
      getBody(d).properties.span = tuple(2);
    },
  },
  {
    rule: "response-position-removed",
    operation: "works-get",
    base: (d) => {
      getBody(d).properties.span = tuple(2);
    },
    head: (d) => {
      getBody(d).properties.span = tuple(1);
    },
  },
  {
    rule: "error-response-added",
    operation: "works-get",
    head: (d) => {
      get(d).responses["409"] = { $ref: "#/components/responses/Conflict" };
    },
  },
  {
    rule: "error-response-removed",
    operation: "works-get",
    head: (d) => Reflect.deleteProperty(get(d).responses, "404"),
  },
];

describe("every rule on the real bundle", () => {
  it("has a case for every rule of the catalogue, and no case for a rule it does not know", () => {
    expect(cases.map((c) => c.rule).sort()).toEqual(Object.keys(RULES).sort());
  });

  it.each(cases.map((c) => [c.rule, c] as const))("%s", (rule, c) => {
    const base = loadSpec();
    const head = loadSpec();
    c.both?.(base);
    c.both?.(head);
    c.base?.(base);
    c.head?.(head);
    const diff = diffContracts(base, head);
    const hit = diff.findings.find((f) => f.rule === rule && f.operation.operationId === c.operation);
    expect(
      hit,
      `${rule} on ${c.operation}; found ${diff.findings.map((f) => `${f.rule}@${f.operation.operationId}`)}`,
    ).toBeDefined();
    expect(hit?.level).toBe(RULES[rule]?.level);
    expect(new Set(diff.findings.map((f) => f.rule))).toEqual(new Set([rule, ...(c.also ?? [])]));
  });
});
