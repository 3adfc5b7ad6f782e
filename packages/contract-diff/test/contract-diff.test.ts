// The differ: every classification rule as a given/want row over a small hand-made contract, the recursion
// guard, the report formats and the command line over files. (real-bundle.test.ts covers every rule on the
// committed bundle, cli.test.ts the gate in a git repository.)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { afterAll, describe, expect, it } from "vitest";
import { diffContracts, formatReport, MARKDOWN_LIMIT } from "../src/index.js";

type Node = Record<string, unknown>;
type Doc = Node;

const script = fileURLToPath(new URL("../bin/workapi-contract-diff.js", import.meta.url));
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/**
 * The contract every row starts from: a create (closed body, 200 with the record) and a paginated list (query
 * parameters, 200 with an array of records). `Thing.parent` makes the record recursive; `Priority` is shared
 * by the request and the response; `Stage` (response) and `StageInput` (request) are separate.
 */
function contract(): Doc {
  return structuredClone({
    openapi: "3.1.0",
    info: { title: "things", version: "1" },
    paths: {
      "/things.create": {
        post: {
          operationId: "things-create",
          security: [{ bearer: ["things:write"] }, { bearer: ["things:all"] }],
          requestBody: { required: true, ...json(ref("ThingsCreateRequest")) },
          responses: {
            "200": { description: "ok", ...json(ref("ThingsCreateResponse")) },
            "400": { $ref: "#/components/responses/BadRequest" },
          },
        },
      },
      "/things.list": {
        get: {
          operationId: "things-list",
          security: [{ bearer: ["things:read"] }],
          "x-pagination": { items: "things" },
          parameters: [
            { $ref: "#/components/parameters/Cursor" },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } },
            { name: "mode", in: "query", schema: ref("ListMode") },
          ],
          responses: { "200": { description: "ok", ...json(ref("ThingsListResponse")) } },
        },
      },
    },
    components: {
      parameters: { Cursor: { name: "cursor", in: "query", schema: { type: "string" } } },
      responses: { BadRequest: { description: "bad", ...json({ type: "object" }) } },
      schemas: {
        ThingsCreateRequest: {
          type: "object",
          additionalProperties: false,
          required: ["title"],
          properties: {
            title: { type: "string", minLength: 1, maxLength: 200 },
            priority: ref("Priority"),
            visibility: { type: "string", enum: ["private", "team", "public"] },
            stage: ref("StageInput"),
            tags: { type: "array", maxItems: 10, items: { type: "string" } },
            size: { type: "integer", minimum: 0, maximum: 100 },
            due: { type: "string", format: "date-time" },
            filter: { oneOf: [ref("RangeFilter"), ref("PresetFilter")] },
            span: { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }] },
          },
        },
        ThingsCreateResponse: { type: "object", required: ["thing"], properties: { thing: ref("Thing") } },
        ThingsListResponse: {
          type: "object",
          required: ["things"],
          properties: { things: { type: "array", items: ref("Thing") }, next_cursor: { type: "string" } },
        },
        Thing: {
          type: "object",
          required: ["id", "title", "stage"],
          properties: {
            id: { type: "string" },
            title: { type: "string", maxLength: 200 },
            kind: { type: "string", enum: ["bug", "chore"] },
            priority: ref("Priority"),
            stage: ref("Stage"),
            tags: { type: "array", items: { type: "string" } },
            created: { type: "string", format: "date-time" },
            origin: { oneOf: [ref("ManualOrigin"), ref("ImportOrigin")] },
            parent: ref("Thing"),
          },
        },
        Priority: { type: "string", enum: ["p0", "p1", "p2"] },
        ListMode: { type: "string", enum: ["after", "before"] },
        Stage: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, ordinal: { type: "integer" } },
        },
        StageInput: {
          type: "object",
          additionalProperties: false,
          properties: { name: { type: "string", maxLength: 64 } },
        },
        RangeFilter: {
          type: "object",
          additionalProperties: false,
          required: ["type"],
          properties: { type: { const: "range" }, after: { type: "string" } },
        },
        PresetFilter: {
          type: "object",
          additionalProperties: false,
          required: ["type", "days"],
          properties: { type: { const: "preset" }, days: { type: "integer", minimum: 1 } },
        },
        ManualOrigin: { type: "object", properties: { by: { type: "string" } } },
        ImportOrigin: { type: "object", properties: { system: { type: "string" } } },
      },
    },
  });
}

/** contract() with an edit applied. */
function edited(edit: (doc: Doc) => void): Doc {
  const doc = contract();
  edit(doc);
  return doc;
}

/** The object at a path of keys, created when missing. */
function at(doc: Doc, ...keys: string[]): Node {
  let node: Node = doc;
  for (const key of keys) {
    node[key] ??= {};
    node = node[key] as Node;
  }
  return node;
}
const schema = (doc: Doc, name: string, ...keys: string[]) => at(doc, "components", "schemas", name, ...keys);
const field = (doc: Doc, name: string, property: string) => schema(doc, name, "properties", property);
const op = (doc: Doc, path: string, method: string) => at(doc, "paths", path, method);
const listParameters = (doc: Doc) => op(doc, "/things.list", "get").parameters as Node[];
const limit = (doc: Doc) => listParameters(doc).find((p) => p.name === "limit") as Node;
const enumOf = (doc: Doc, name: string, ...keys: string[]) => schema(doc, name, ...keys).enum as unknown[];

function addField(doc: Doc, name: string, property: string, value: Node, required = false) {
  field(doc, name, property);
  Object.assign(schema(doc, name, "properties"), { [property]: value });
  if (required) (schema(doc, name).required as string[]).push(property);
}
function removeField(doc: Doc, name: string, property: string) {
  Reflect.deleteProperty(schema(doc, name, "properties"), property);
  setRequired(doc, name, property, false);
}
function setRequired(doc: Doc, name: string, property: string, required: boolean) {
  const list = ((schema(doc, name).required as string[] | undefined) ?? []).filter((p) => p !== property);
  schema(doc, name).required = required ? [...list, property] : list;
}
const unset = (node: Node, key: string) => Reflect.deleteProperty(node, key);

/** `base` changes only the base contract, `head` only the head one; both start from contract(). */
type Row = { name: string; base?: (doc: Doc) => void; head?: (doc: Doc) => void; want: string[] };

// want: "<level> <operationId> <where> <rule>".
const requestRows: Row[] = [
  {
    name: "a new required field breaks callers",
    head: (d) => addField(d, "ThingsCreateRequest", "note", { type: "string" }, true),
    want: ["error things-create body.note request-property-added-required"],
  },
  {
    name: "an optional field added does not",
    head: (d) => addField(d, "ThingsCreateRequest", "note", { type: "string" }),
    want: ["info things-create body.note request-property-added-optional"],
  },
  {
    name: "a field removed from a closed body breaks callers that send it",
    head: (d) => removeField(d, "ThingsCreateRequest", "size"),
    want: ["error things-create body.size request-property-removed"],
  },
  {
    name: "a field removed from an open body does not",
    base: (d) => unset(schema(d, "ThingsCreateRequest"), "additionalProperties"),
    head: (d) => {
      unset(schema(d, "ThingsCreateRequest"), "additionalProperties");
      removeField(d, "ThingsCreateRequest", "size");
    },
    want: ["warning things-create body.size request-property-removed-ignored"],
  },
  {
    name: "a field becoming required breaks callers",
    head: (d) => setRequired(d, "ThingsCreateRequest", "size", true),
    want: ["error things-create body.size request-property-became-required"],
  },
  {
    name: "a field becoming optional does not",
    head: (d) => setRequired(d, "ThingsCreateRequest", "title", false),
    want: ["info things-create body.title request-property-became-optional"],
  },
  {
    name: "a type change breaks callers",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "size"), { type: "string" }),
    want: ["error things-create body.size request-type-changed"],
  },
  {
    name: "a type widened to accept more (integer -> integer | null) does not",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "size"), { type: ["integer", "null"] }),
    want: ["info things-create body.size request-type-widened"],
  },
  {
    name: "an enum value removed breaks callers",
    head: (d) => enumOf(d, "ThingsCreateRequest", "properties", "visibility").pop(),
    want: ["error things-create body.visibility request-enum-value-removed"],
  },
  {
    name: "an enum value added does not",
    head: (d) => enumOf(d, "ThingsCreateRequest", "properties", "visibility").push("org"),
    want: ["info things-create body.visibility request-enum-value-added"],
  },
  {
    name: "an enum dropped (any value accepted) does not",
    head: (d) => unset(field(d, "ThingsCreateRequest", "visibility"), "enum"),
    want: ["info things-create body.visibility request-enum-removed"],
  },
  {
    name: "an enum added (values now limited) breaks callers",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { enum: ["a", "b"] }),
    want: ["error things-create body.title request-enum-added"],
  },
  {
    name: "maxLength lowered is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { maxLength: 100 }),
    want: ["error things-create body.title request-bound-tightened"],
  },
  {
    name: "maxLength raised is looser",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { maxLength: 300 }),
    want: ["info things-create body.title request-bound-loosened"],
  },
  {
    name: "minLength raised is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { minLength: 3 }),
    want: ["error things-create body.title request-bound-tightened"],
  },
  {
    name: "minLength lowered is looser",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { minLength: 0 }),
    want: ["info things-create body.title request-bound-loosened"],
  },
  {
    name: "maximum lowered is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "size"), { maximum: 50 }),
    want: ["error things-create body.size request-bound-tightened"],
  },
  {
    name: "minimum raised is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "size"), { minimum: 1 }),
    want: ["error things-create body.size request-bound-tightened"],
  },
  {
    name: "minimum removed is looser",
    head: (d) => unset(field(d, "ThingsCreateRequest", "size"), "minimum"),
    want: ["info things-create body.size request-bound-loosened"],
  },
  {
    name: "maxItems lowered is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "tags"), { maxItems: 5 }),
    want: ["error things-create body.tags request-bound-tightened"],
  },
  {
    name: "a bound added to array items is tighter, reported on the items",
    head: (d) => Object.assign(at(field(d, "ThingsCreateRequest", "tags"), "items"), { maxLength: 20 }),
    want: ["error things-create body.tags[] request-bound-tightened"],
  },
  {
    name: "a change behind a $ref is reported by its dotted path",
    head: (d) => Object.assign(field(d, "StageInput", "name"), { maxLength: 32 }),
    want: ["error things-create body.stage.name request-bound-tightened"],
  },
  {
    name: "a required field brought in through allOf breaks callers",
    head: (d) => {
      const schemas = at(d, "components", "schemas");
      schemas.Audited = { type: "object", required: ["reason"], properties: { reason: { type: "string" } } };
      schemas.ThingsCreateRequest = { allOf: [ref("Audited"), schemas.ThingsCreateRequest] };
    },
    want: ["error things-create body.reason request-property-added-required"],
  },
  {
    name: "a oneOf variant removed breaks callers that send it",
    head: (d) => (field(d, "ThingsCreateRequest", "filter").oneOf as unknown[]).pop(),
    want: ["error things-create body.filter request-variant-removed"],
  },
  {
    name: "a oneOf variant added does not",
    head: (d) => (field(d, "ThingsCreateRequest", "filter").oneOf as unknown[]).push(ref("StageInput")),
    want: ["info things-create body.filter request-variant-added"],
  },
  {
    name: "a change inside a oneOf variant is named by the variant",
    head: (d) => Object.assign(field(d, "PresetFilter", "days"), { minimum: 7 }),
    want: ["error things-create body.filter(PresetFilter).days request-bound-tightened"],
  },
  {
    name: "a format changed breaks callers",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "due"), { format: "date" }),
    want: ["error things-create body.due request-format-changed"],
  },
  {
    name: "a format dropped does not",
    head: (d) => unset(field(d, "ThingsCreateRequest", "due"), "format"),
    want: ["info things-create body.due request-format-removed"],
  },
  {
    name: "a pattern added breaks callers",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { pattern: "^[a-z]+$" }),
    want: ["error things-create body.title request-pattern-added"],
  },
  {
    name: "a body that starts rejecting unknown fields breaks callers",
    base: (d) => unset(schema(d, "ThingsCreateRequest"), "additionalProperties"),
    want: ["error things-create body request-body-closed"],
  },
  {
    name: "a body that starts accepting unknown fields does not",
    head: (d) => unset(schema(d, "ThingsCreateRequest"), "additionalProperties"),
    want: ["info things-create body request-body-opened"],
  },
  {
    name: "a body becoming optional does not break callers",
    head: (d) => Object.assign(at(op(d, "/things.create", "post"), "requestBody"), { required: false }),
    want: ["info things-create body request-body-became-optional"],
  },
  {
    name: "a body becoming required breaks them",
    base: (d) => Object.assign(at(op(d, "/things.create", "post"), "requestBody"), { required: false }),
    want: ["error things-create body request-body-became-required"],
  },
  {
    name: "a required body on an operation that took none breaks callers",
    head: (d) => {
      op(d, "/things.list", "get").requestBody = { required: true, ...json({ type: "object" }) };
    },
    want: ["error things-list body request-body-added-required"],
  },
  {
    name: "an optional body on an operation that took none does not",
    head: (d) => {
      op(d, "/things.list", "get").requestBody = json({ type: "object" });
    },
    want: ["info things-list body request-body-added-optional"],
  },
  {
    name: "a body removed breaks callers that send one",
    head: (d) => unset(op(d, "/things.create", "post"), "requestBody"),
    want: ["error things-create body request-body-removed"],
  },
  {
    name: "a format added is tighter",
    head: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { format: "email" }),
    want: ["error things-create body.title request-format-added"],
  },
  {
    name: "a pattern changed is tighter, a pattern removed looser",
    base: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { pattern: "^a" }),
    head: (d) => {
      Object.assign(field(d, "ThingsCreateRequest", "title"), { pattern: "^b" });
      Object.assign(field(d, "StageInput", "name"), { pattern: "^c" });
    },
    want: [
      "error things-create body.title request-pattern-changed",
      "error things-create body.stage.name request-pattern-added",
    ],
  },
  {
    name: "a pattern removed is looser",
    base: (d) => Object.assign(field(d, "ThingsCreateRequest", "title"), { pattern: "^a" }),
    want: ["info things-create body.title request-pattern-removed"],
  },
  {
    name: "a tuple position no longer described is looser",
    head: (d) => (field(d, "ThingsCreateRequest", "span").prefixItems as unknown[]).pop(),
    want: ["info things-create body.span[1] request-position-removed"],
  },
  {
    name: "a tuple position newly described is tighter",
    head: (d) => (field(d, "ThingsCreateRequest", "span").prefixItems as unknown[]).push({ type: "string" }),
    want: ["error things-create body.span[2] request-position-added"],
  },
  {
    name: "a change at a tuple position is reported by its index",
    head: (d) => {
      field(d, "ThingsCreateRequest", "span").prefixItems = [{ type: "integer" }, { type: "string" }];
    },
    want: ["error things-create body.span[1] request-type-changed"],
  },
  {
    name: "a union replaced by a single shape is a type change",
    head: (d) => {
      schema(d, "ThingsCreateRequest", "properties").filter = ref("RangeFilter");
    },
    want: ["error things-create body.filter request-type-changed"],
  },
  {
    name: "a media type added to a body does not",
    head: (d) => {
      const content = at(op(d, "/things.create", "post"), "requestBody", "content");
      content["multipart/form-data"] = { schema: { type: "object" } };
    },
    want: ["info things-create body(multipart/form-data) request-media-type-added"],
  },
  {
    name: "a new required parameter breaks callers",
    head: (d) =>
      listParameters(d).push({ name: "org", in: "query", required: true, schema: { type: "string" } }),
    want: ["error things-list query.org request-parameter-added-required"],
  },
  {
    name: "an optional parameter added does not",
    head: (d) => listParameters(d).push({ name: "q", in: "query", schema: { type: "string" } }),
    want: ["info things-list query.q request-parameter-added-optional"],
  },
  {
    name: "a parameter removed (here a shared $ref one) breaks callers",
    head: (d) => listParameters(d).shift(),
    want: ["error things-list query.cursor request-parameter-removed"],
  },
  {
    name: "a parameter becoming required breaks callers",
    head: (d) => Object.assign(limit(d), { required: true }),
    want: ["error things-list query.limit request-parameter-became-required"],
  },
  {
    name: "a parameter becoming optional does not",
    base: (d) => Object.assign(limit(d), { required: true }),
    want: ["info things-list query.limit request-parameter-became-optional"],
  },
  {
    name: "a parameter's maximum lowered is tighter",
    head: (d) => Object.assign(at(limit(d), "schema"), { maximum: 50 }),
    want: ["error things-list query.limit request-bound-tightened"],
  },
  {
    name: "a parameter's enum value removed (through a $ref) breaks callers",
    head: (d) => enumOf(d, "ListMode").pop(),
    want: ["error things-list query.mode request-enum-value-removed"],
  },
  {
    name: "a parameter's enum value added does not",
    head: (d) => enumOf(d, "ListMode").push("around"),
    want: ["info things-list query.mode request-enum-value-added"],
  },
];

const responseRows: Row[] = [
  {
    name: "a field removed breaks readers",
    head: (d) => removeField(d, "Thing", "tags"),
    want: [
      "error things-create response.thing.tags response-property-removed",
      "error things-list response.things[].tags response-property-removed",
    ],
  },
  {
    name: "a field added does not",
    head: (d) => addField(d, "Thing", "color", { type: "string" }),
    want: [
      "info things-create response.thing.color response-property-added",
      "info things-list response.things[].color response-property-added",
    ],
  },
  {
    name: "a field no longer required breaks readers",
    head: (d) => setRequired(d, "Thing", "stage", false),
    want: [
      "error things-create response.thing.stage response-property-became-optional",
      "error things-list response.things[].stage response-property-became-optional",
    ],
  },
  {
    name: "a field now always present does not",
    head: (d) => setRequired(d, "Thing", "kind", true),
    want: [
      "info things-create response.thing.kind response-property-became-required",
      "info things-list response.things[].kind response-property-became-required",
    ],
  },
  {
    name: "a type change breaks readers, reported by dotted path through $refs",
    head: (d) => Object.assign(field(d, "Stage", "ordinal"), { type: "string" }),
    want: [
      "error things-create response.thing.stage.ordinal response-type-changed",
      "error things-list response.things[].stage.ordinal response-type-changed",
    ],
  },
  {
    name: "a type widened (now nullable) breaks readers",
    head: (d) => Object.assign(field(d, "Stage", "ordinal"), { type: ["integer", "null"] }),
    want: [
      "error things-create response.thing.stage.ordinal response-type-changed",
      "error things-list response.things[].stage.ordinal response-type-changed",
    ],
  },
  {
    name: "a type narrowed (no longer nullable) does not",
    base: (d) => Object.assign(field(d, "Stage", "ordinal"), { type: ["integer", "null"] }),
    want: [
      "info things-create response.thing.stage.ordinal response-type-narrowed",
      "info things-list response.things[].stage.ordinal response-type-narrowed",
    ],
  },
  {
    name: "an enum value added may break exhaustive readers",
    head: (d) => enumOf(d, "Thing", "properties", "kind").push("spike"),
    want: [
      "warning things-create response.thing.kind response-enum-value-added",
      "warning things-list response.things[].kind response-enum-value-added",
    ],
  },
  {
    name: "an enum value removed breaks readers too",
    head: (d) => enumOf(d, "Thing", "properties", "kind").pop(),
    want: [
      "error things-create response.thing.kind response-enum-value-removed",
      "error things-list response.things[].kind response-enum-value-removed",
    ],
  },
  {
    name: "an enum dropped (any value answered) breaks readers",
    head: (d) => unset(field(d, "Thing", "kind"), "enum"),
    want: [
      "error things-create response.thing.kind response-enum-removed",
      "error things-list response.things[].kind response-enum-removed",
    ],
  },
  {
    name: "a shared enum value added: safe for callers, a warning for readers",
    head: (d) => enumOf(d, "Priority").push("p3"),
    want: [
      "info things-create body.priority request-enum-value-added",
      "warning things-create response.thing.priority response-enum-value-added",
      "warning things-list response.things[].priority response-enum-value-added",
    ],
  },
  {
    name: "a shared enum value removed: breaking both ways",
    head: (d) => enumOf(d, "Priority").pop(),
    want: [
      "error things-create body.priority request-enum-value-removed",
      "error things-create response.thing.priority response-enum-value-removed",
      "error things-list response.things[].priority response-enum-value-removed",
    ],
  },
  {
    name: "an enum added (fewer values answered) does not break readers",
    head: (d) => Object.assign(field(d, "Thing", "title"), { enum: ["a", "b"] }),
    want: [
      "info things-create response.thing.title response-enum-added",
      "info things-list response.things[].title response-enum-added",
    ],
  },
  {
    name: "a bound changed in a response is a note",
    head: (d) => Object.assign(field(d, "Thing", "title"), { maxLength: 100 }),
    want: [
      "info things-create response.thing.title response-bound-tightened",
      "info things-list response.things[].title response-bound-tightened",
    ],
  },
  {
    name: "a format dropped from a response breaks readers",
    head: (d) => unset(field(d, "Thing", "created"), "format"),
    want: [
      "error things-create response.thing.created response-format-removed",
      "error things-list response.things[].created response-format-removed",
    ],
  },
  {
    name: "a oneOf variant added to a response may break exhaustive readers",
    head: (d) => (field(d, "Thing", "origin").oneOf as unknown[]).push(ref("Stage")),
    want: [
      "warning things-create response.thing.origin response-variant-added",
      "warning things-list response.things[].origin response-variant-added",
    ],
  },
  {
    name: "a oneOf variant removed from a response does not break readers",
    head: (d) => (field(d, "Thing", "origin").oneOf as unknown[]).pop(),
    want: [
      "info things-create response.thing.origin response-variant-removed",
      "info things-list response.things[].origin response-variant-removed",
    ],
  },
  {
    name: "a success status replaced: the old one removed breaks, the new one is added",
    head: (d) => {
      const responses = at(op(d, "/things.create", "post"), "responses");
      responses["201"] = responses["200"];
      unset(responses, "200");
    },
    want: [
      "error things-create responses.200 response-success-status-removed",
      "info things-create responses.201 response-success-status-added",
    ],
  },
  {
    name: "a response media type removed breaks readers",
    head: (d) => {
      const content = at(op(d, "/things.create", "post"), "responses", "200", "content");
      content["application/x-ndjson"] = content["application/json"];
      unset(content, "application/json");
    },
    want: [
      "info things-create response(application/x-ndjson) response-media-type-added",
      "error things-create response response-media-type-removed",
    ],
  },
];

const operationRows: Row[] = [
  {
    name: "an operation removed breaks callers",
    base: (d) => {
      at(d, "paths", "/things.delete").post = { operationId: "things-delete", responses: {} };
    },
    want: ["error things-delete  operation-removed"],
  },
  {
    name: "an operation added does not",
    head: (d) => {
      at(d, "paths", "/things.delete").post = { operationId: "things-delete", responses: {} };
    },
    want: ["info things-delete  operation-added"],
  },
  {
    name: "a method removed from a path that remains breaks callers",
    base: (d) => {
      at(d, "paths", "/things.list").post = { operationId: "things-list-post", responses: {} };
    },
    want: ["error things-list-post  method-removed"],
  },
  {
    name: "a scope alternative removed breaks callers",
    head: (d) => (op(d, "/things.create", "post").security as unknown[]).pop(),
    want: ["error things-create security security-alternative-removed"],
  },
  {
    name: "a scope alternative added does not",
    head: (d) => (op(d, "/things.list", "get").security as unknown[]).push({ bearer: ["things:all"] }),
    want: ["info things-list security security-alternative-added"],
  },
  {
    name: "a scope alternative replaced: one removed, one added",
    head: (d) => {
      op(d, "/things.list", "get").security = [{ bearer: ["things:read", "org:read"] }];
    },
    want: [
      "error things-list security security-alternative-removed",
      "info things-list security security-alternative-added",
    ],
  },
  {
    name: "an error status removed is a note",
    head: (d) => unset(at(op(d, "/things.create", "post"), "responses"), "400"),
    want: ["warning things-create responses.400 error-response-removed"],
  },
  {
    name: "an error status added is a note",
    head: (d) => {
      at(op(d, "/things.create", "post"), "responses")["409"] = { description: "conflict" };
    },
    want: ["info things-create responses.409 error-response-added"],
  },
  {
    name: "x-pagination removed breaks callers",
    head: (d) => unset(op(d, "/things.list", "get"), "x-pagination"),
    want: ["error things-list x-pagination pagination-removed"],
  },
  {
    name: "x-pagination added breaks callers",
    head: (d) => {
      op(d, "/things.create", "post")["x-pagination"] = { items: "things" };
    },
    want: ["error things-create x-pagination pagination-added"],
  },
  {
    name: "x-pagination changed breaks callers",
    head: (d) => {
      op(d, "/things.list", "get")["x-pagination"] = { items: "things", next_cursor: "cursor" };
    },
    want: ["error things-list x-pagination pagination-changed"],
  },
];

function run(row: Row) {
  const base = contract();
  const head = contract();
  row.base?.(base);
  row.head?.(head);
  return diffContracts(base, head);
}

const summarize = (diff: ReturnType<typeof diffContracts>) =>
  diff.findings.map((c) => `${c.level} ${c.operation.operationId} ${c.where} ${c.rule}`).sort();

describe.each([
  ["requests", requestRows],
  ["responses", responseRows],
  ["operations", operationRows],
])("%s", (_group, rows) => {
  it.each(rows.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    const diff = run(row);
    expect(summarize(diff)).toEqual([...row.want].sort());
    for (const level of ["error", "warning", "info"] as const) {
      expect(diff.counts[level]).toBe(row.want.filter((w) => w.startsWith(`${level} `)).length);
    }
  });
});

describe("details", () => {
  it("says that an added response enum value may break exhaustive readers", () => {
    const diff = run(responseRows.find((r) => r.name.startsWith("an enum value added may")) as Row);
    expect(diff.findings[0]?.message).toMatch(/exhaustive readers/);
  });

  it("finds no change between a contract and its copy", () => {
    expect(diffContracts(contract(), contract())).toEqual({
      findings: [],
      counts: { error: 0, warning: 0, info: 0 },
      schemas: { added: [], removed: [] },
    });
  });

  it("lists the schemas added and removed", () => {
    const base = contract();
    const head = contract();
    unset(at(head, "components", "schemas"), "ImportOrigin");
    (field(head, "Thing", "origin").oneOf as unknown[]).pop();
    schema(head, "Unused").type = "string";
    expect(diffContracts(base, head).schemas).toEqual({ added: ["Unused"], removed: ["ImportOrigin"] });
  });

  it("names operations by operationId, method and path", () => {
    const diff = run(operationRows[0] as Row);
    expect(diff.findings[0]?.operation).toEqual({
      operationId: "things-delete",
      method: "post",
      path: "/things.delete",
    });
  });
});

describe("recursive schemas", () => {
  it("walks a self-referencing schema once per path (Thing.parent is a Thing)", () => {
    const head = contract();
    Object.assign(field(head, "Thing", "id"), { type: "integer" });
    expect(summarize(diffContracts(contract(), head))).toEqual([
      "error things-create response.thing.id response-type-changed",
      "error things-list response.things[].id response-type-changed",
    ]);
  });

  it("ends on mutual recursion (Thing -> Stage -> Thing)", () => {
    const base = contract();
    addField(base, "Stage", "example", ref("Thing"));
    const head = structuredClone(base);
    Object.assign(field(head, "Stage", "name"), { type: "integer" });
    expect(summarize(diffContracts(base, head))).toEqual([
      "error things-create response.thing.stage.name response-type-changed",
      "error things-list response.things[].stage.name response-type-changed",
    ]);
  });

  it("ends when only one side recurses", () => {
    const base = contract();
    schema(base, "Thing", "properties").parent = { type: "object", properties: { id: { type: "string" } } };
    const diff = diffContracts(base, contract());
    expect(diff.counts.error).toBe(0);
    expect(summarize(diff)).toContain(
      "info things-create response.thing.parent.title response-property-added",
    );
    expect(summarize(diff)).toContain(
      "info things-create response.thing.parent.parent response-property-added",
    );
  });

  it("ends on recursion through an allOf wrapper (a $ref with a description beside it)", () => {
    const base = contract();
    schema(base, "Thing", "properties").parent = { allOf: [ref("Thing")], description: "The parent." };
    const head = structuredClone(base);
    Object.assign(field(head, "Thing", "id"), { type: "integer" });
    expect(summarize(diffContracts(base, head))).toEqual([
      "error things-create response.thing.id response-type-changed",
      "error things-list response.things[].id response-type-changed",
    ]);
  });

  it("ends on an allOf that includes itself", () => {
    const base = contract();
    const head = contract();
    schema(head, "Thing").allOf = [ref("Thing")];
    addField(head, "Thing", "color", { type: "string" });
    expect(summarize(diffContracts(base, head))).toEqual([
      "info things-create response.thing.color response-property-added",
      "info things-list response.things[].color response-property-added",
    ]);
  });
});

describe("the real bundle", () => {
  it("has no changes against itself", () => {
    expect(diffContracts(loadSpec(), loadSpec())).toEqual({
      findings: [],
      counts: { error: 0, warning: 0, info: 0 },
      schemas: { added: [], removed: [] },
    });
  });

  it("reports a value removed from a shared enum wherever it is used, on both sides, and nothing else", () => {
    const head = loadSpec();
    (schema(head, "WorkType").enum as string[]).pop();
    const diff = diffContracts(loadSpec(), head);
    expect(new Set(diff.findings.map((c) => `${c.level} ${c.rule}`))).toEqual(
      new Set(["error request-enum-value-removed", "error response-enum-value-removed"]),
    );
    expect(summarize(diff)).toContain("error works-export query.type[] request-enum-value-removed");
  });
});

describe("formatReport", () => {
  const diff = diffContracts(
    contract(),
    edited((d) => {
      addField(d, "ThingsCreateRequest", "note", { type: "string" }, true);
      addField(d, "Thing", "color", { type: "string" });
      at(d, "paths", "/things.delete").post = { operationId: "things-delete", responses: {} };
    }),
  );

  it("writes markdown for pull requests: a one-line summary, errors first, safe operations folded away", () => {
    const report = formatReport(diff, "markdown", { base: "main", head: "working tree" });
    const lines = report.split("\n");
    expect(lines[0]).toBe("## Contract review: 1 error, 0 warnings, 3 info (main → working tree)");
    expect(report).toContain("### `things-create` `POST /things.create`: 1 error, 1 info");
    expect(report).toContain(
      "| **error** | `request-property-added-required` | `body.note` | new required property |",
    );
    expect(report).toContain(
      "| info | `response-property-added` | `response.thing.color` | property added |",
    );
    const folded = report.slice(report.indexOf("<details>"));
    expect(folded).toContain("<summary>2 operations with info-level changes only</summary>");
    expect(folded).toContain("### `things-delete` `POST /things.delete`: 1 info");
    expect(folded).toContain("| info | `operation-added` |  | operation added |");
    expect(report.indexOf("things-create")).toBeLessThan(report.indexOf("<details>"));
  });

  it("escapes pipes in table cells", () => {
    const widened = diffContracts(
      contract(),
      edited((d) => Object.assign(field(d, "Stage", "ordinal"), { type: ["integer", "null"] })),
    );
    expect(formatReport(widened, "markdown")).toContain("type changed from integer to integer \\| null |");
  });

  it("keeps a Markdown report under GitHub's comment limit, most severe operations first, counting the rest", () => {
    const findings = Array.from({ length: 1200 }, (_, i) => ({
      rule: i % 2 ? "response-property-removed" : "response-property-added",
      level: i % 2 ? ("error" as const) : ("info" as const),
      operation: { operationId: `op-${i}`, method: "post", path: `/things.op-${i}` },
      where: `response.thing.${"nested.".repeat(5)}field`,
      message: "a finding long enough to fill the comment quickly",
    }));
    const huge = {
      findings,
      counts: { error: 600, warning: 0, info: 600 },
      schemas: { added: [], removed: [] },
    };
    const report = formatReport(huge, "markdown");
    expect(report.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expect(report).toContain("### `op-1` `POST /things.op-1`: 1 error");
    expect(report).not.toContain("`op-0`");
    expect(report).toMatch(/\n(\d+) more operations not shown: the comment would be too long\./);
    const shown = report.match(/^### /gm)?.length ?? 0;
    expect(Number(report.match(/(\d+) more operations not shown/)?.[1])).toBe(1200 - shown);
    expect(report.trimEnd().endsWith("Schemas removed: none")).toBe(true);
  });

  it("writes plain text for terminals", () => {
    const report = formatReport(diff, "text");
    expect(report).toContain("Contract review: 1 error, 0 warnings, 3 info");
    expect(report).toContain(
      "things-create (POST /things.create)\n  error    request-property-added-required  body.note: new required property",
    );
    expect(report).not.toContain("`");
  });

  it("writes the structured diff as JSON", () => {
    expect(JSON.parse(formatReport(diff, "json"))).toEqual(diff);
  });
});

describe("command line", () => {
  const dir = mkdtempSync(join(tmpdir(), "contract-diff-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, doc: Doc) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  const cli = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });
  const base = write("base.json", contract());
  const breaking = write(
    "breaking.json",
    edited((d) => removeField(d, "Thing", "tags")),
  );
  const additive = write(
    "additive.json",
    edited((d) => addField(d, "Thing", "color", { type: "string" })),
  );

  it("exits 1 with --fail-on-breaking when a change is an error, writing markdown when not on a terminal", () => {
    const result = cli("--base-file", base, "--head-file", breaking, "--fail-on-breaking");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("## Contract review: 2 errors, 0 warnings, 0 info");
    expect(result.stdout).toContain(
      "| **error** | `response-property-removed` | `response.thing.tags` | property removed: readers lose it |",
    );
  });

  it("exits 0 without the flag, and with it when nothing breaks", () => {
    expect(cli("--base-file", base, "--head-file", breaking, "--format", "text").status).toBe(0);
    const result = cli("--base-file", base, "--head-file", additive, "--fail-on-breaking", "--format=json");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ counts: { error: 0, warning: 0, info: 2 } });
  });

  it.each([
    [["--format", "html"], /--format must be markdown, text or json/],
    [["--base-file"], /Option '--base-file <value>' argument missing/],
    [["--format", ""], /--format needs a value/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["HEAD", "HEAD~1"], /one base ref only/],
    [["--base-file", join(dir, "missing.json")], /cannot read/],
    [
      ["no-such-ref-for-contract-diff"],
      /cannot read packages\/spec\/openapi\.json at no-such-ref-for-contract-diff/,
    ],
  ])("exits 2 and says what to do on %j", (args, message) => {
    const result = cli(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Usage: workapi-contract-diff");
  });
});
