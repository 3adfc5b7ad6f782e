// Every example in the contract (schema `examples`, media-type `example`/`examples`, parameter `example`)
// validates against the schema it illustrates, with the same JSON Schema 2020-12 validator the server uses.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../index.js";

const spec = loadSpec();
const SPEC_ID = "https://workapi.invalid/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: SPEC_ID, components: spec.components }, SPEC_ID);

/** Points local refs of an inline schema at the registered document. */
function anchor(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`));
}

type Case = { where: string; schema: unknown; value: unknown };
const cases: Case[] = [];

for (const [name, schema] of Object.entries(spec.components.schemas ?? {})) {
  const examples = (schema as { examples?: unknown[] }).examples ?? [];
  examples.forEach((value, index) => {
    cases.push({
      where: `schema ${name} example ${index}`,
      schema: { $ref: `#/components/schemas/${name}` },
      value,
    });
  });
}

type Media = { schema?: unknown; example?: unknown; examples?: Record<string, { value?: unknown }> };
type Parameter = { name: string; schema?: unknown; example?: unknown; $ref?: string };

function mediaCases(where: string, content: Record<string, Media> | undefined) {
  for (const [type, media] of Object.entries(content ?? {})) {
    if (media.example !== undefined)
      cases.push({ where: `${where} ${type}`, schema: media.schema, value: media.example });
    for (const [key, example] of Object.entries(media.examples ?? {})) {
      cases.push({ where: `${where} ${type} ${key}`, schema: media.schema, value: example.value });
    }
  }
}

function resolve<T>(value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  const [, section, name] = value.$ref.replace("#/components/", "").match(/^([^/]+)\/(.+)$/) ?? [];
  return resolve((spec.components[section ?? ""]?.[name ?? ""] ?? {}) as T & { $ref?: string });
}

for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, raw] of Object.entries(item)) {
    const operation = raw as {
      parameters?: Parameter[];
      requestBody?: { content?: Record<string, Media>; $ref?: string };
      responses?: Record<string, { content?: Record<string, Media>; $ref?: string }>;
    };
    const where = `${method.toUpperCase()} ${path}`;
    for (const parameter of (operation.parameters ?? []).map((p) => resolve(p))) {
      if (parameter.example !== undefined) {
        cases.push({
          where: `${where} parameter ${parameter.name}`,
          schema: parameter.schema,
          value: parameter.example,
        });
      }
    }
    if (operation.requestBody) mediaCases(`${where} request`, resolve(operation.requestBody).content);
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      mediaCases(`${where} ${status}`, resolve(response).content);
    }
  }
}

describe("examples in the contract", () => {
  it("exist for every request body and success response", () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, raw] of Object.entries(item)) {
        const operation = raw as {
          requestBody?: { content?: Record<string, Media> };
          responses?: Record<string, { content?: Record<string, Media> }>;
        };
        const where = `${method.toUpperCase()} ${path}`;
        for (const media of Object.values(operation.requestBody?.content ?? {})) {
          if (media.example === undefined && !media.examples) missing.push(`${where} request`);
        }
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!status.startsWith("2")) continue;
          for (const media of Object.values(response.content ?? {})) {
            if (media.example === undefined && !media.examples) missing.push(`${where} ${status}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("are many enough to mean something", () => {
    expect(cases.length).toBeGreaterThan(50);
  });

  it.each(cases.map((c) => [c.where, c] as const))("%s validates", (_where, { schema, value }) => {
    const validate = ajv.compile(anchor(schema) as object);
    const valid = validate(value);
    expect(valid ? [] : validate.errors).toEqual([]);
  });
});
