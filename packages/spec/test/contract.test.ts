// House rules of the contract that lint rules cannot express: every component file is used, every operation
// carries the extensions the client and server rely on, and paginated operations take and answer cursors.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSpec, resolveRef } from "../index.js";

const spec = loadSpec();
const componentsDir = fileURLToPath(new URL("../../../spec/components/", import.meta.url));

type Operation = {
  operationId: string;
  "x-interface-name"?: string;
  "x-safe"?: boolean;
  "x-pagination"?: { items: string; next_cursor?: string; prev_cursor?: string };
  "x-error-types"?: string[];
  "x-scopes-by-type"?: { source: string; field?: string; scopes: Record<string, string[]> };
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ $ref?: string; name?: string }>;
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: { $ref?: string } }> }>;
};

const operations: Array<[string, Operation]> = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]): [string, Operation] => [
    `${method.toUpperCase()} ${path}`,
    operation as Operation,
  ]),
);

function schemaByRef(ref: string | undefined): Record<string, unknown> {
  const name = (ref ?? "").replace("#/components/schemas/", "");
  return (spec.components.schemas?.[name] ?? {}) as Record<string, unknown>;
}

const interfaceErrorTypes = new Set([
  "artifact_already_attached_to_a_parent",
  "dev_org_deactivated",
  "forbidden",
  "not_found",
  "request_entity_too_large",
  "too_many_requests",
  "internal_error",
  "service_unavailable",
  "unauthenticated",
  "conflict",
]);

describe("components", () => {
  it.each(["schemas", "responses", "parameters"])("every file in spec/components/%s is used", (section) => {
    const files = readdirSync(`${componentsDir}${section}`)
      .filter((file) => file.endsWith(".yaml"))
      .map((file) => file.replace(/\.yaml$/, ""));
    const bundled = Object.keys(spec.components[section] ?? {});
    expect(files.filter((name) => !bundled.includes(name))).toEqual([]);
  });
});

describe.each(operations)("%s", (_where, operation) => {
  it("has a kebab-case operationId derived from its interface name", () => {
    const name = operation["x-interface-name"] ?? "";
    expect(operation.operationId).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(operation.operationId.replace(/-post$/, "")).toBe(name.replaceAll(".", "-"));
  });

  it("lists only error types of the interface", () => {
    const types = operation["x-error-types"] ?? [];
    expect(types.length).toBeGreaterThan(0);
    expect(types.filter((type) => !interfaceErrorTypes.has(type))).toEqual([]);
  });

  it("documents the errors every operation can produce", () => {
    for (const status of ["400", "401", "403", "415", "429", "431", "500", "503"]) {
      expect(operation.responses[status], status).toBeDefined();
    }
    if (operation["x-error-types"]?.includes("not_found")) expect(operation.responses["404"]).toBeDefined();
    if (operation["x-error-types"]?.includes("conflict")) expect(operation.responses["409"]).toBeDefined();
    if (operation["x-error-types"]?.includes("request_entity_too_large")) {
      expect(operation.responses["413"]).toBeDefined();
    }
    expect(operation.responses["429"]?.$ref).toBe("#/components/responses/TooManyRequests");
  });

  it("names its scopes, or says why it needs none", () => {
    expect(operation.security?.length).toBeGreaterThan(0);
    const byType = operation["x-scopes-by-type"];
    if (byType) {
      const union = new Set(Object.values(byType.scopes).flat());
      const declared = new Set(operation.security?.flatMap((requirement) => requirement.bearer ?? []));
      expect([...union].sort()).toEqual([...declared].sort());
    }
  });

  it("bounds every array a read takes (list filters, sort keys) with maxItems", () => {
    if (!operation["x-safe"]) return;
    const unbounded: string[] = [];
    const schemas: Array<[string, unknown]> = [];
    for (const parameter of operation.parameters ?? []) {
      const resolved = resolveRef(spec, parameter) as { name: string; schema?: unknown };
      schemas.push([resolved.name, resolved.schema]);
    }
    const body = operation.requestBody?.content["application/json"]?.schema;
    if (body) schemas.push(["body", body]);
    const seen = new Set<unknown>();
    while (schemas.length > 0) {
      const [where, raw] = schemas.pop() as [string, unknown];
      const schema = resolveRef(spec, raw) as Record<string, unknown> | undefined;
      if (!schema || typeof schema !== "object" || seen.has(schema)) continue;
      seen.add(schema);
      if ([schema.type].flat().includes("array") && typeof schema.maxItems !== "number")
        unbounded.push(where);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as object))
        schemas.push([`${where}.${name}`, property]);
      for (const key of ["allOf", "anyOf", "oneOf"])
        for (const part of (schema[key] ?? []) as unknown[]) schemas.push([where, part]);
      if (schema.items) schemas.push([`${where}[]`, schema.items]);
    }
    expect(unbounded).toEqual([]);
  });

  it("takes and answers cursors when it paginates", () => {
    const pagination = operation["x-pagination"];
    if (!pagination) return;
    const body = operation.requestBody?.content["application/json"]?.schema;
    const fields = body
      ? Object.keys((schemaByRef(body.$ref).properties ?? {}) as object)
      : (operation.parameters ?? []).map((p) => p.name ?? p.$ref?.split("/").pop()?.toLowerCase());
    for (const field of ["cursor", "limit", "mode"])
      expect(fields.map((f) => f?.replace("sortby", "sort_by"))).toContain(field);
    const ok = operation.responses["200"]?.content?.["application/json"]?.schema;
    const answer = Object.keys((schemaByRef(ok?.$ref).properties ?? {}) as object);
    expect(answer).toContain(pagination.items);
    expect(answer).toContain(pagination.next_cursor ?? "next_cursor");
    expect(answer).toContain(pagination.prev_cursor ?? "prev_cursor");
  });
});

describe("auth-tokens.create's scope", () => {
  const doc = loadSpec();
  const scopes = new Set<string>();
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item) as Array<{ security?: Array<Record<string, string[]>> }>)
      for (const requirement of operation.security ?? [])
        for (const names of Object.values(requirement)) for (const name of names) scopes.add(name);
  const schema = doc.components.schemas?.AuthTokensCreateRequest as {
    properties: { scope: { pattern: string } };
  };
  const pattern = new RegExp(schema.properties.scope.pattern);

  it("accepts every scope the contract's security requirements name, alone and together", () => {
    expect(scopes.size).toBeGreaterThan(0);
    for (const scope of scopes) expect(pattern.test(scope), scope).toBe(true);
    expect(pattern.test([...scopes].join(" "))).toBe(true);
  });

  it("accepts nothing else: every record type of the pattern has its three scopes in the contract", () => {
    // `^((<types>):(read|write|all)|sandbox:admin)( ...)*$`: the record types, and the one scope of sandboxes.
    const types = /^\^\(\(([^)]+)\)/.exec(schema.properties.scope.pattern)?.[1]?.split("|") ?? [];
    expect(types.length).toBeGreaterThan(0);
    for (const type of types)
      for (const action of ["read", "write", "all"]) expect(scopes.has(`${type}:${action}`), type).toBe(true);
    expect(pattern.test("sandbox:admin tag:read")).toBe(true);
    for (const bad of ["!", "tag:read  issue:read", "tag:admin", "tags:read", " tag:read", "sandbox:read"])
      expect(pattern.test(bad), bad).toBe(false);
  });
});
