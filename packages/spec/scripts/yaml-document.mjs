// The bundle's YAML (packages/spec/openapi.yaml), made on ./yaml-thread.mjs from the bundle's JSON.
import { stringify } from "yaml";

const OPTIONS = { lineWidth: 0, aliasDuplicateObjects: false };
/** The top-level members written entry by entry (a path, a component). */
const BY_ENTRY = new Set(["paths", "webhooks"]);

/**
 * The YAML of each entry of the last run, by the entry's JSON: `pnpm dev` writes the bundle on every save, and a
 * save changes a few paths or components of hundreds, so the rest is taken from here (a save's YAML in about 5
 * ms instead of about 90). Only the last run's entries are kept. The first run (`pnpm generate` makes only one)
 * writes the document whole: made entry by entry with nothing kept, it takes a third longer.
 */
let kept;
let made;

/**
 * The YAML of `value` nested under `keys` (each a map's key), without the lines of those keys: what the
 * whole document's YAML has there. Block style with no line width, so an entry's text does not depend on what
 * is around it (test/bundle-yaml.test.ts compares this with the document stringified whole).
 */
function entry(keys, value) {
  const wrapped = keys.reduceRight((inner, key) => ({ [key]: inner }), value);
  const json = JSON.stringify(wrapped);
  let text = kept.get(json) ?? made.get(json);
  if (text === undefined) {
    const whole = stringify(wrapped, OPTIONS);
    const header = keys
      .slice(0, -1)
      .map((key, depth) => `${"  ".repeat(depth)}${stringify(key, OPTIONS).trimEnd()}:\n`)
      .join("");
    if (!whole.startsWith(header)) throw new Error(`unexpected YAML for ${keys.join(" / ")}`);
    text = whole.slice(header.length);
  }
  made.set(json, text);
  return text;
}

/**
 * The YAML of the bundled document `doc`, as `stringify(doc, OPTIONS)` writes it: whole the first time, then
 * entry by entry, each entry's text kept from the last run when the entry is the same.
 */
export function documentYaml(doc) {
  if (!kept) {
    kept = new Map();
    return stringify(doc, OPTIONS);
  }
  made = new Map();
  let yaml = "";
  const isMap = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  for (const [key, value] of Object.entries(doc)) {
    const entries = isMap(value) ? Object.entries(value) : [];
    if (BY_ENTRY.has(key) && entries.length > 0) {
      yaml += `${stringify(key, OPTIONS).trimEnd()}:\n`;
      for (const [name, item] of entries) yaml += entry([key, name], item);
    } else if (key === "components" && entries.length > 0) {
      yaml += "components:\n";
      for (const [kind, members] of entries) {
        const named = isMap(members) ? Object.entries(members) : [];
        if (named.length === 0) {
          yaml += entry([key, kind], members);
          continue;
        }
        yaml += `  ${stringify(kind, OPTIONS).trimEnd()}:\n`;
        for (const [name, member] of named) yaml += entry([key, kind, name], member);
      }
    } else yaml += entry([key], value);
  }
  kept = made;
  return yaml;
}
