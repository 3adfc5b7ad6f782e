// The record families the contract states (`x-record-families`, spec/README.md) are well formed, and every
// id in the examples uses a family's display id prefix: the prefixes a running server hands out.
import { describe, expect, it } from "vitest";
import { loadSpec, recordFamilies, resolveRef } from "../index.js";

const spec = loadSpec();
const families = recordFamilies(spec);

// Id-shaped example values that are no ids of this service's records, each with why it stays as written.
const LITERAL_PREFIXES: Record<string, string> = {
  // Records of the platform this service keeps none of and has no operations for; a filter naming one is
  // valid and matches nothing, a summary of one shows the platform's id.
  BRAND: "a brand",
  CHAN: "a channel",
  FRAG: "a custom schema fragment",
  GRP: "a group",
  LINK: "a link between two records",
  METRIC: "an SLA metric definition",
  REVU: "a customer (Rev) user, as a session recording names it",
  ROLE: "a role",
  SLATRACKER: "an SLA tracker",
  SYNCH: "a synchronization run",
  SYNCUNIT: "a synchronization unit",
  // Values that only look like ids.
  CAMP: "a custom object's own unique key",
  SUP: "a record's reference in an external system",
};

/** Every example value in `node` (schema `example`/`examples`, media and parameter `example`/`examples`). */
function examplesIn(node: unknown, where: string, out: Array<{ where: string; value: unknown }>) {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      examplesIn(item, `${where}/${index}`, out);
    });
    return out;
  }
  if (node === null || typeof node !== "object") return out;
  for (const [key, value] of Object.entries(node)) {
    const at = `${where}/${key}`;
    if (key === "x-codeSamples") continue;
    if (key === "properties" && value !== null && typeof value === "object") {
      // Property names are no keywords: a property called `example` is a schema.
      for (const [name, schema] of Object.entries(value)) examplesIn(schema, `${at}/${name}`, out);
    } else if (key === "example") {
      out.push({ where: at, value });
    } else if (key === "examples" && Array.isArray(value)) {
      value.forEach((item, index) => {
        out.push({ where: `${at}/${index}`, value: item });
      });
    } else if (key === "examples" && value !== null && typeof value === "object") {
      for (const [name, example] of Object.entries(value)) {
        out.push({ where: `${at}/${name}`, value: resolveRef<{ value?: unknown }>(spec, example).value });
      }
    } else {
      examplesIn(value, at, out);
    }
  }
  return out;
}

/** The id-shaped strings in an example value, with where each is. */
function idsIn(value: unknown, where: string): Array<{ where: string; id: string; prefix: string }> {
  if (typeof value === "string") {
    const prefix = /^([A-Z][A-Z-]*)-\d+$/.exec(value)?.[1];
    return prefix ? [{ where, id: value, prefix }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => idsIn(item, `${where}/${index}`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => idsIn(item, `${where}/${key}`));
  }
  return [];
}

const ids = examplesIn(spec, "#", []).flatMap(({ where, value }) => idsIn(value, where));
const prefixes = new Set(families.map((family) => family.prefix));

describe("record families", () => {
  it("are stated on schemas only, each entry with its fields", () => {
    const where = JSON.stringify(spec).match(/"x-record-families"/g)?.length ?? 0;
    const onSchemas = Object.values(spec.components.schemas ?? {}).filter(
      (schema) => (schema as Record<string, unknown>)["x-record-families"] !== undefined,
    );
    expect(where).toBe(onSchemas.length);
    for (const schema of onSchemas) {
      const list = (schema as Record<string, unknown>)["x-record-families"] as Array<Record<string, unknown>>;
      expect(Array.isArray(list) && list.length > 0).toBe(true);
      for (const entry of list) {
        const keys = Object.keys(entry).filter((key) => key !== "kind");
        expect(keys.sort()).toEqual(["display-name", "id-type", "name", "prefix"]);
      }
    }
    for (const family of families) {
      const about = `${family.schema}: ${family.name}`;
      expect(family.name, about).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(family.prefix, about).toMatch(/^[A-Z]+$/);
      expect(family.idType, about).toMatch(/^[a-z]+(_[a-z]+)*$/);
      if (family.kind !== undefined) expect(family.kind, about).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(family.displayName, about).toMatch(/^an? \S/);
    }
  });

  it("have distinct names, prefixes and id types", () => {
    const distinct = (values: string[]) => values.filter((value, index) => values.indexOf(value) !== index);
    expect(distinct(families.map((family) => family.name))).toEqual([]);
    expect(distinct(families.map((family) => family.prefix))).toEqual([]);
    expect(distinct(families.map((family) => family.idType))).toEqual([]);
  });

  it("give every id in the examples its prefix", () => {
    expect(ids.length).toBeGreaterThan(100);
    const unknown = ids.filter(({ prefix }) => !prefixes.has(prefix) && !(prefix in LITERAL_PREFIXES));
    expect(unknown.map(({ where, id }) => `${where}: ${id}`)).toEqual([]);
  });

  it("leave only literal values the examples hold to the list of literal prefixes", () => {
    const used = new Set(ids.map(({ prefix }) => prefix));
    expect(Object.keys(LITERAL_PREFIXES).filter((prefix) => !used.has(prefix))).toEqual([]);
    expect(Object.keys(LITERAL_PREFIXES).filter((prefix) => prefixes.has(prefix))).toEqual([]);
  });
});
