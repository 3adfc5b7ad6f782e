// The values of every x- extension the operations carry, checked against the rest of the contract: the
// server and the client generator read these facts instead of keeping lists of operation names.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, loadSpec, resolveRef } from "../index.js";

type Schema = { enum?: string[]; items?: Schema; properties?: Record<string, Schema>; $ref?: string };
type ScopesByType = { source: string; field?: string; scopes: Record<string, string[]> };
type Operation = Record<string, unknown> & {
  "x-interface-name": string;
  "x-scopes-by-type"?: ScopesByType;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
};

const spec = loadSpec();
const readme = readFileSync(new URL("../../../spec/README.md", import.meta.url), "utf8");
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((method) => item[method]).map((method) => ({
    where: `${method.toUpperCase()} ${path}`,
    method,
    operation: item[method] as Operation,
  })),
);
const bodyOf = (operation: Operation): Schema =>
  resolveRef<Schema>(spec, operation.requestBody?.content["application/json"]?.schema ?? {});
const enumOf = (schema: Schema | undefined): string[] | undefined => {
  const resolved = resolveRef<Schema | undefined>(spec, schema);
  return resolved?.enum ?? (resolved?.items ? enumOf(resolved.items) : undefined);
};

describe("x- extensions", () => {
  it("are each documented in spec/README.md", () => {
    const used = new Set([
      ...operations.flatMap(({ operation }) => Object.keys(operation)),
      ...Object.values(spec.components.schemas ?? {}).flatMap((schema) => Object.keys(schema as object)),
    ]);
    // x-codeSamples is the docs renderer's own extension (Redoc's), documented there.
    const ours = [...used].filter((key) => key.startsWith("x-") && key !== "x-codeSamples");
    const undocumented = ours.filter((key) => !readme.includes(`| \`${key}\``));
    expect(undocumented).toEqual([]);
  });

  it.each(operations)(
    "x-safe, x-companion, x-parent-access and x-unreleased of $where hold allowed values",
    ({ method, operation }) => {
      expect([undefined, true, false]).toContain(operation["x-safe"]);
      if (method === "get") expect(operation["x-safe"]).toBe(true);
      expect([undefined, true]).toContain(operation["x-companion"]);
      expect([undefined, "read"]).toContain(operation["x-parent-access"]);
      expect([undefined, true]).toContain(operation["x-unreleased"]);
    },
  );

  it("agree between the GET and POST forms of one name", () => {
    const byName = new Map<string, Operation[]>();
    for (const { operation } of operations) {
      const name = operation["x-interface-name"];
      byName.set(name, [...(byName.get(name) ?? []), operation]);
    }
    for (const [name, forms] of byName) {
      for (const key of [
        "x-safe",
        "x-pagination",
        "x-error-types",
        "x-scopes-by-type",
        "x-parent-access",
        "x-unreleased",
      ]) {
        const values = new Set(forms.map((form) => JSON.stringify(form[key])));
        expect(values.size, `${name} ${key}`).toBe(1);
      }
    }
  });

  it.each(operations)(
    "x-error-types of $where are distinct, each with its declared response",
    ({ operation }) => {
      const types = (operation["x-error-types"] ?? []) as string[];
      expect(new Set(types).size).toBe(types.length);
      const statuses: Record<string, string> = {
        not_found: "404",
        conflict: "409",
        request_entity_too_large: "413",
      };
      for (const [type, status] of Object.entries(statuses)) {
        if (types.includes(type))
          expect(operation.responses[status], `${type} needs ${status}`).toBeDefined();
      }
      // The server answers an oversized body with 413 only where the operation declares it (400 elsewhere).
      expect("413" in operation.responses).toBe(types.includes("request_entity_too_large"));
    },
  );

  const typed = operations.filter(
    ({ method, operation }) => method === "post" && operation["x-scopes-by-type"],
  );
  it.each(typed)("x-scopes-by-type of $where names real types and their own scopes", ({ operation }) => {
    const byType = operation["x-scopes-by-type"] as ScopesByType;
    expect(["field", "id", "parent"]).toContain(byType.source);
    const types = Object.keys(byType.scopes).sort();
    expect(types.length).toBeGreaterThan(0);
    for (const [type, scopes] of Object.entries(byType.scopes)) {
      expect(scopes.length, type).toBeGreaterThan(0);
      for (const scope of scopes) expect(scope).toMatch(new RegExp(`^${type}:(read|write|all)$`));
    }
    const body = bodyOf(operation);
    if (byType.source === "field") {
      // The types are exactly the values the request field may take.
      expect(byType.field).toBeDefined();
      expect(
        enumOf(body.properties?.[byType.field as string])
          ?.slice()
          .sort(),
      ).toEqual(types);
    } else {
      expect(byType.field).toBeUndefined();
    }
    if (byType.source === "id") {
      // The record named by `id` is one of the types a sibling operation takes in a field.
      expect(body.properties?.id).toBeDefined();
      const family = operation["x-interface-name"].split(".")[0];
      const siblings = typed
        .map(({ operation: other }) => other)
        .filter((other) => other["x-interface-name"].split(".")[0] === family)
        .filter((other) => other["x-scopes-by-type"]?.source === "field");
      expect(siblings.length).toBeGreaterThan(0);
      for (const other of siblings) {
        expect(Object.keys(other["x-scopes-by-type"]?.scopes ?? {}).sort()).toEqual(types);
      }
    }
  });
});
