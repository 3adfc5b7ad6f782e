// The bundle's YAML made entry by entry (scripts/yaml-document.mjs, which `pnpm dev` uses on every save) is the
// document stringified whole, on the first run, on a run that keeps nothing yet and on runs after changes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { documentYaml } from "../scripts/yaml-document.mjs";

const OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false };
const bundled = () => JSON.parse(readFileSync(new URL("../openapi.json", import.meta.url), "utf8"));

describe("the bundle's YAML, entry by entry", () => {
  it("is the whole document's YAML through runs that change, add and remove entries", () => {
    const doc = bundled();
    const whole = stringify(doc, OPTIONS);
    // The first run writes it whole, the second entry by entry with nothing kept, the third from what it kept.
    for (let run = 0; run < 3; run++) expect(documentYaml(doc)).toBe(whole);

    const firstPath = String(Object.keys(doc.paths)[0]);
    doc.paths[firstPath] = { ...doc.paths[firstPath], summary: "Said: 'this' # not a comment\nsecond line" };
    doc.paths["/odd: path #x"] = { get: { operationId: "odd", responses: {} } };
    doc.components.schemas.Tag = {
      ...doc.components.schemas.Tag,
      description: "- looks like a list\n  indented",
    };
    delete doc.components.schemas[String(Object.keys(doc.components.schemas).at(-1))];
    doc.components.callbacks = {};
    doc["x-empty"] = {};
    expect(documentYaml(doc)).toBe(stringify(doc, OPTIONS));

    // Back to the bundle as it was: entries kept from two runs ago are made again, the same.
    expect(documentYaml(bundled())).toBe(whole);
  });
});
