// The types generator: packages/types/src/schema.d.ts, openapi-typescript's types of the bundled contract.

import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";

const TYPES_FILE = "packages/types/src/schema.d.ts";

export const typesGenerator = {
  name: "types",
  inputs: ["bundle"],
  outputs: [TYPES_FILE],
  // The types are the bundle's alone, with this code: the driver's cache keys on them.
  reads: ["packages/types/scripts/generate.mjs", "packages/spec/scripts/generated-notice.mjs"],
  async generate({ inputs }) {
    // Loaded here, not at the top: openapi-typescript brings TypeScript (more than a second to load), which a
    // run whose types are cached never needs.
    const { default: openapiTS, astToString } = await import("openapi-typescript");
    // A copy: openapi-typescript changes the document it is handed (a `const` becomes an `enum`), and the docs
    // page reads the same document, at the same time since the generators run side by side.
    const ast = await openapiTS(structuredClone(inputs.bundle.doc), {
      alphabetize: false,
      exportType: false,
      rootTypes: false,
      defaultNonNullable: false,
      emptyObjectsUnknown: true,
    });
    return { files: { [TYPES_FILE]: `// ${GENERATED_NOTICE}\n${astToString(ast)}` } };
  },
};
