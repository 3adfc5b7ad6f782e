// The error catalogue (src/core/errors.ts) against the contract's error model: every error type the contract
// names has one entry, every entry is a type the contract names, and each entry's status is one the contract
// documents that type under.
import { type OpenApiDocument, resolveRef } from "@workapi/spec";
import { describe, expect, it } from "vitest";
import { loadContract } from "../src/core/contract.js";
import { apiError, ERRORS } from "../src/core/errors.js";

const { spec } = loadContract();

/** The error types a schema's bodies can carry (its `type` enum or const, through oneOf/anyOf). */
function typesOf(document: OpenApiDocument, node: unknown): string[] {
  const schema = resolveRef<Record<string, unknown>>(document, node);
  const variants = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (variants) return variants.flatMap((variant) => typesOf(document, variant));
  const type = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.type;
  if (!type) return [];
  return type.enum ? (type.enum as string[]) : type.const !== undefined ? [String(type.const)] : [];
}

/** Every error type in the contract, with the statuses its bodies are documented under. */
function documented(): Map<string, Set<number>> {
  const statuses = new Map<string, Set<number>>();
  for (const item of Object.values(spec.paths)) {
    for (const operation of Object.values(item) as Array<{ responses: Record<string, unknown> }>) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const content = resolveRef<{ content?: Record<string, { schema: unknown }> }>(spec, response).content;
        const schema = content?.["application/json"]?.schema;
        for (const type of schema ? typesOf(spec, schema) : []) {
          statuses.set(type, (statuses.get(type) ?? new Set()).add(Number(status)));
        }
      }
    }
  }
  return statuses;
}

describe("the error catalogue", () => {
  const contract = documented();

  it("has one entry for every error type of the contract, and no other", () => {
    expect(contract.size).toBeGreaterThan(20);
    expect(Object.keys(ERRORS).sort()).toEqual([...contract.keys()].sort());
  });

  it("gives each type a status the contract documents it under", () => {
    for (const [type, { status }] of Object.entries(ERRORS)) {
      expect([...(contract.get(type) ?? [])], type).toContain(status);
    }
  });

  it("raises an error by type: the catalogue's status and title, the detail and fields given", () => {
    const error = apiError("not_found", "Tag 'TAG-9' does not exist.", { field_name: "id" });
    expect(error.status).toBe(404);
    expect(error.body()).toEqual({
      type: "not_found",
      message: ERRORS.not_found.title,
      detail: "Tag 'TAG-9' does not exist.",
      field_name: "id",
    });
    expect(apiError("conflict").body().detail).toBe(ERRORS.conflict.title);
  });
});
