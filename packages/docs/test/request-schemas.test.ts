// What the console's request checks are compiled from (src/render/request-schemas.mjs): one part per compiled
// module, each holding only what its code is made from, so that `pnpm dev` compiles again only the part a save
// changed, and each part compiles to what the whole set of named schemas gave.
import { loadSpec } from "@workapi/spec";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { checkedSchemas, withoutAnnotations } from "../src/render/request-schemas.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { CHECK_MODULES, standaloneValidators } from "../src/render/request-validators.mjs";

type Part = { components: { schemas: Record<string, unknown> }; schemas: Record<string, unknown> };
type Parts = { bodies: Part; queries: Part };
type Doc = { components: { schemas: Record<string, Record<string, unknown>> } };

const fresh = () => structuredClone(loadSpec()) as unknown as Doc;
const parts = (doc: Doc) => checkedSchemas(doc) as Parts;

describe("the console's request checks, in parts", () => {
  it("hand each part only the named schemas its requests reach, and compile to what all of them gave", () => {
    const doc = fresh();
    const named = Object.entries(doc.components.schemas);
    // Every named schema, as the compiler was handed them before the parts.
    const withAll = {
      components: {
        schemas: Object.fromEntries(named.map(([name, schema]) => [name, withoutAnnotations(schema)])),
      },
    };
    for (const [name, part] of Object.entries(parts(doc))) {
      const reached = Object.keys(part.components.schemas).length;
      expect(reached, name).toBeGreaterThan(0);
      expect(reached, name).toBeLessThan(named.length);
      const { kind } = CHECK_MODULES[name];
      const same =
        standaloneValidators(part, kind, part.schemas) === standaloneValidators(withAll, kind, part.schemas);
      expect(same, `${name}: the same code from the schemas reached as from all of them`).toBe(true);
    }
  });

  it("change only where a save changes what a part checks", () => {
    const before = parts(fresh());
    const keys = (p: Parts) => ({ bodies: JSON.stringify(p.bodies), queries: JSON.stringify(p.queries) });

    // A description is no check: neither part changes.
    const described = fresh();
    described.components.schemas.TagsCreateRequest = {
      ...described.components.schemas.TagsCreateRequest,
      description: "Another description.",
    };
    expect(keys(parts(described))).toEqual(keys(before));

    // A bound on a body's schema: the bodies' part changes, the queries' does not.
    const bounded = fresh();
    const request = bounded.components.schemas.TagsCreateRequest as { properties: Record<string, object> };
    request.properties.name = { ...request.properties.name, maxLength: 40 };
    const after = keys(parts(bounded));
    expect(after.bodies).not.toBe(keys(before).bodies);
    expect(after.queries).toBe(keys(before).queries);
  });
});
