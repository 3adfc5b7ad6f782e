// JSON Schema (as the contract writes it) -> fast-check arbitraries: values valid per a schema, and ways to
// break them. Written here rather than taken from npm: the one package that maps JSON Schema to fast-check
// (json-schema-fast-check 0.0.6) is built on fast-check 1 and faker 4 and knows neither 2020-12 nor OpenAPI's
// discriminator. The mapping covers what the contract uses (type, enum, const, the formats date-time, uri,
// email, int32/int64, pattern, min/maxLength, minimum/maximum, min/maxItems, uniqueItems, required,
// additionalProperties, min/maxProperties, oneOf/anyOf/allOf, $ref, discriminator); what it only approximates
// (if/then, unevaluatedProperties) is settled by the caller, which keeps only values Ajv accepts.
import { deref } from "@workapi/spec";
import fc from "fast-check";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema nodes are read keyword by keyword
export type Schema = Record<string, any>;

export interface ArbitraryOptions {
  /**
   * Ids that exist on the server under test for a string field (`owned_by`, or `id` inside `parent`; parent ""
   * is the request itself): such fields draw from them as well as from random strings.
   */
  ids: (field: string, parent: string) => string[];
  /** How deep optional properties are still generated (recursive schemas stop there; 0: only required ones). */
  maxDepth?: number;
  /** String fields that have known ids take only those (no random strings). */
  idsOnly?: boolean;
}

/** Follows `$ref`s and merges `allOf` into one schema node. */
export function resolve(doc: unknown, node: unknown): Schema {
  const schema = deref<Schema>(doc, node).node;
  if (!schema || typeof schema !== "object" || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  const merged: Schema = { ...rest };
  for (const part of allOf as unknown[]) {
    const resolved = resolve(doc, part);
    for (const [key, value] of Object.entries(resolved)) {
      if (key === "properties") merged.properties = { ...merged.properties, ...value };
      else if (key === "required") merged.required = [...new Set([...(merged.required ?? []), ...value])];
      else if (!(key in merged)) merged[key] = value;
    }
  }
  return merged;
}

/** The JSON types a schema admits (from `type`, `const` or `enum`). */
export function typesOf(schema: Schema): string[] {
  if (schema.const !== undefined) return [jsonType(schema.const)];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === "string") return [schema.type];
  if (schema.properties) return ["object"];
  return [];
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

function stringArbitrary(
  schema: Schema,
  field: string,
  parent: string,
  options: ArbitraryOptions,
): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? minLength + 24, minLength + 24);
  switch (schema.format) {
    case "date-time":
      return fc
        .date({
          min: new Date("2000-01-01T00:00:00Z"),
          max: new Date("2040-01-01T00:00:00Z"),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString());
    case "uri":
      return fc.webUrl();
    case "email":
      return fc.emailAddress();
  }
  if (schema.pattern)
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength);
  const text = fc.string({ minLength, maxLength, unit: "grapheme-ascii" });
  const ids = options.ids(field, parent);
  if (ids.length === 0) return text;
  if (options.idsOnly) return fc.constantFrom(...ids);
  return fc.oneof({ arbitrary: fc.constantFrom(...ids), weight: 3 }, { arbitrary: text, weight: 1 });
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : schema.minimum;
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : schema.maximum;
  if (integer || schema.format === "int32" || schema.format === "int64") {
    return fc.integer({
      min: min ?? (schema.format === "int32" ? -(2 ** 31) : -1_000_000),
      max: max ?? (schema.format === "int32" ? 2 ** 31 - 1 : 1_000_000),
    });
  }
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values that mostly satisfy `node` (the caller filters with the real validator). */
export function arbitraryOf(
  doc: unknown,
  node: unknown,
  options: ArbitraryOptions,
  field = "",
  depth = 0,
  parent = "",
): fc.Arbitrary<unknown> {
  const schema = resolve(doc, node);
  if (!schema || typeof schema !== "object" || Object.keys(schema).length === 0)
    return fc.jsonValue({ maxDepth: 1 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches)) {
    // A discriminator needs nothing more: each branch pins its `propertyName` with a const or enum.
    return fc.oneof(...branches.map((b: unknown) => arbitraryOf(doc, b, options, field, depth + 1, parent)));
  }
  const types = typesOf(schema);
  if (types.length > 1) {
    return fc.oneof(
      ...types.map((type) => arbitraryOf(doc, { ...schema, type }, options, field, depth, parent)),
    );
  }
  switch (types[0]) {
    case "string":
      return stringArbitrary(schema, field, parent, options);
    case "integer":
      return numberArbitrary(schema, true);
    case "number":
      return numberArbitrary(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const item = arbitraryOf(doc, schema.items ?? {}, options, field, depth + 1, parent);
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    default:
      return objectArbitrary(doc, schema, options, depth, field);
  }
}

function objectArbitrary(
  doc: unknown,
  schema: Schema,
  options: ArbitraryOptions,
  depth: number,
  field: string,
): fc.Arbitrary<unknown> {
  const properties: Record<string, unknown> = schema.properties ?? {};
  const required: string[] = schema.required ?? [];
  // Past the depth limit only required properties are made, unless minProperties asks for more.
  const tooDeep = depth >= (options.maxDepth ?? 4) && !schema.minProperties;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (tooDeep && !required.includes(name)) continue;
    model[name] = arbitraryOf(doc, property, options, name, depth + 1, field);
  }
  const record = fc.record(model, { requiredKeys: required.filter((name) => name in model) });
  const extra = schema.additionalProperties;
  const withExtra =
    extra && typeof extra === "object" && !tooDeep
      ? fc
          .tuple(
            record,
            fc.dictionary(
              fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/),
              arbitraryOf(doc, extra, options, "", depth + 1, field),
              { maxKeys: 3 },
            ),
          )
          .map(([known, more]) => ({ ...more, ...(known as object) }))
      : record;
  const minProperties = schema.minProperties ?? 0;
  return minProperties > 0
    ? withExtra.filter((value) => Object.keys(value as object).length >= minProperties)
    : withExtra;
}

/** One way of breaking a request: where (a top-level field, or the whole body) and the value put there. */
export interface Mutation {
  kind: string;
  field?: string;
  apply(value: Record<string, unknown>): unknown;
}

const NUL = "a\u0000b";
const LONE_SURROGATE = "a\ud800b";
const HUGE_STRING_LENGTH = 100_000;
const HUGE_ARRAY_LENGTH = 33_000;
/** Deeper than the server's limit on nesting (64) by far: a walk of it by recursion would overflow. */
const DEEP_NESTING = 3_000;

/** An array nested `depth` levels deep around a string: `[[[..."deep"...]]]`. */
function nested(depth: number): unknown {
  let value: unknown = "deep";
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

function setField(field: string, replacement: unknown): (value: Record<string, unknown>) => unknown {
  return (value) => ({ ...value, [field]: replacement });
}

function wrongTypeValues(types: string[]): Array<[string, unknown]> {
  const samples: Array<[string, unknown]> = [
    ["string", "not-of-this-type"],
    ["integer", 7],
    ["number", 1.5],
    ["boolean", true],
    ["array", ["x"]],
    ["object", { x: 1 }],
  ];
  return samples.filter(
    ([type]) => !types.includes(type) && !(type === "integer" && types.includes("number")),
  );
}

/**
 * The ways of breaking a request whose (object) schema is `node`: the whole body replaced by `null` or another
 * type, a required field left out, an undeclared field added, and per top-level field a wrong type, `null`,
 * a NUL byte, a lone surrogate, a huge string or array, and each bound or enum broken; a cursor of garbage (with
 * and without NUL), and the first field nested 3,000 levels deep. Some of these leave the
 * request valid per the schema (a NUL byte in a free-text field); the caller tells them apart with the validator.
 */
export function mutationsOf(doc: unknown, node: unknown): Mutation[] {
  const schema = resolve(doc, node);
  const mutations: Mutation[] = [
    { kind: "null body", apply: () => null },
    { kind: "array body", apply: (v) => [v] },
    { kind: "string body", apply: () => "body" },
    { kind: "number body", apply: () => 42 },
  ];
  const first = Object.keys((schema.properties ?? {}) as object)[0];
  if (first) {
    const deep = nested(DEEP_NESTING);
    mutations.push({ kind: "nested 3000 levels deep", field: first, apply: setField(first, deep) });
  }
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) {
    mutations.push({ kind: "undeclared field", field: "fuzz_extra", apply: setField("fuzz_extra", "x") });
  }
  for (const name of (schema.required ?? []) as string[]) {
    mutations.push({
      kind: "required field left out",
      field: name,
      apply: (value) => {
        const { [name]: _dropped, ...rest } = value;
        return rest;
      },
    });
  }
  for (const [name, propertyNode] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const property = resolve(doc, propertyNode);
    const types = typesOf(property);
    const add = (kind: string, replacement: unknown) =>
      mutations.push({ kind, field: name, apply: setField(name, replacement) });
    for (const [type, sample] of wrongTypeValues(types)) add(`wrong type (${type})`, sample);
    if (!types.includes("null")) add("null field", null);
    const itemTypes = types.includes("array") ? typesOf(resolve(doc, property.items ?? {})) : [];
    const stringsHere = types.includes("string") ? "string" : itemTypes.includes("string") ? "array" : "";
    const asField = (text: string) => (stringsHere === "array" ? [text] : text);
    if (stringsHere) {
      add("NUL byte", asField(NUL));
      add("lone surrogate", asField(LONE_SURROGATE));
      add("huge string", asField("x".repeat(HUGE_STRING_LENGTH)));
    }
    if (types.includes("array")) {
      const item = itemTypes.includes("string") ? "v" : itemTypes.includes("integer") ? 1 : {};
      add(
        "huge array",
        Array.from({ length: HUGE_ARRAY_LENGTH }, (_, i) => (item === "v" ? `v${i}` : item)),
      );
      if (property.maxItems !== undefined)
        add(
          "too many items",
          Array.from({ length: property.maxItems + 1 }, (_, i) => `v${i}`),
        );
      if (property.minItems) add("too few items", []);
    }
    if (Array.isArray(property.enum) || property.const !== undefined)
      add("value outside the enum", "zz-not-listed");
    if (property.minLength) add("shorter than minLength", "");
    if (property.maxLength !== undefined) add("longer than maxLength", "x".repeat(property.maxLength + 1));
    if (property.minimum !== undefined) add("below minimum", property.minimum - 1);
    if (property.maximum !== undefined) add("above maximum", property.maximum + 1);
    if (property.format === "date-time") add("bad date-time", "yesterday");
    if (property.pattern) add("pattern broken", " ");
    if (name === "cursor") {
      add("garbage cursor", "Z2FyYmFnZQ");
      add("garbage cursor with NUL", "Z2Fy\u0000YmFnZQ");
    }
  }
  return mutations;
}
