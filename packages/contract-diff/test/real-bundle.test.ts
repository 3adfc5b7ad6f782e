// The engine on the committed contract: the real bundle as the base and a copy with one edit as the head.
// Each case wants the named rule at its level, reaching the named operation, and no error it does not expect.
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { diffSpecs, fromDocument } from "../src/engine/index.js";
import type { Json } from "./support/types.js";

const NOW = new Date("2026-11-25T00:00:00Z");
const schemas = (d: Json): Json => d.components.schemas;
const props = (schema: Json): Json =>
  schema.properties ?? schema.allOf.find((m: Json) => m.properties).properties;
const op = (d: Json, path: string, method = "post"): Json => d.paths[path][method];

type Case = { name: string; edit: (d: Json) => void; rule: string; level: string; reaches: string };
const cases: Case[] = [
  {
    name: "a property removed from Tag",
    edit: (d) => delete props(schemas(d).Tag).description,
    rule: "response-optional-property-removed",
    level: "error",
    reaches: "tags-list",
  },
  {
    name: "an operation removed",
    edit: (d) => delete d.paths["/tags.list"],
    rule: "operation-removed",
    level: "error",
    reaches: "tags-list",
  },
  {
    name: "an operation added",
    edit: (d) => {
      d.paths["/tags.archive"] = {
        post: { operationId: "tags.archive", responses: { 200: { description: "ok" } } },
      };
    },
    rule: "operation-added",
    level: "info",
    reaches: "tags.archive",
  },
  {
    name: "a required request property added",
    edit: (d) => {
      const body = op(d, "/tags.create").requestBody.content["application/json"].schema;
      const target = body.$ref ? schemas(d)[body.$ref.split("/").pop()] : body;
      props(target).colour = { type: "string" };
      target.required = [...(target.required ?? []), "colour"];
    },
    rule: "request-property-added-required",
    level: "error",
    reaches: "tags-create",
  },
  {
    name: "a success status replaced",
    edit: (d) => {
      const responses = op(d, "/tags.create").responses;
      responses["200"] = responses["201"];
      delete responses["201"];
    },
    rule: "response-success-status-changed",
    level: "error",
    reaches: "tags-create",
  },
  {
    name: "a scope added",
    edit: (d) => {
      const o = op(d, "/tags.create");
      o.security = [{ bearer: ["tag:write", "tag:admin"] }, { bearer: ["tag:all"] }];
    },
    rule: "security-requirement-added",
    level: "error",
    reaches: "tags-create",
  },
];

describe("the committed contract", () => {
  const bundle = loadSpec();

  it("has no change against itself", () => {
    expect(diffSpecs(fromDocument(bundle), fromDocument(loadSpec()), { now: NOW }).findings).toEqual([]);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const head = loadSpec();
    c.edit(head);
    const report = diffSpecs(fromDocument(bundle), fromDocument(head), { now: NOW });
    const mine = report.findings.find((f) => f.rule === c.rule);
    expect(mine?.level).toBe(c.level);
    expect(mine?.operations.map((o) => o.operationId)).toContain(c.reaches);
  });
});
