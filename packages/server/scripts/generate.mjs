// The server generator: packages/server/src/store/record-ids.ts, the id word and display prefix of the record
// families the server keeps in tables of their own (dev users, access tokens), from the contract's
// x-record-families. The store makes their ids from these and reads nothing above it to know them; the
// families it keeps as records are named by the operations that make them (src/core/record-families.ts).
import { recordFamilies } from "@workapi/spec";
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";

export const SERVER_RECORD_IDS_FILE = "packages/server/src/store/record-ids.ts";

/** The families of the store's own tables, by the constant the store reads each under. */
const OWN_TABLES = { DEV_USER_IDS: "dev_user", TOKEN_IDS: "auth_token" };

export function recordIdsSource(doc) {
  const stated = new Map(recordFamilies(doc).map((family) => [family.name, family]));
  const lines = [
    `// ${GENERATED_NOTICE}`,
    "// The ids of the record families the store keeps in tables of their own, from x-record-families.",
    "",
  ];
  for (const [constant, name] of Object.entries(OWN_TABLES)) {
    const family = stated.get(name);
    if (!family) throw new Error(`the contract states no record family '${name}' (x-record-families)`);
    lines.push(
      `/** ${family.displayName}: ids \`…:${family.idType}/<n>\`, display ids \`${family.prefix}-<n>\`. */`,
      `export const ${constant} = { idType: ${JSON.stringify(family.idType)}, prefix: ${JSON.stringify(family.prefix)} } as const;`,
      "",
    );
  }
  return lines.join("\n");
}

export const serverGenerator = {
  name: "server",
  inputs: ["bundle"],
  outputs: [SERVER_RECORD_IDS_FILE],
  generate: ({ inputs }) => ({ files: { [SERVER_RECORD_IDS_FILE]: recordIdsSource(inputs.bundle.doc) } }),
};

// The settings generator writes the README's table of settings from src/settings.ts (./generate-settings.mjs).
export { settingsGenerator } from "./generate-settings.mjs";
