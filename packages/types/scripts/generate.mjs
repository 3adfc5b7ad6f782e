// The types generator: packages/types/src/schema.d.ts, openapi-typescript's types of the bundled contract.

import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";
import openapiTS, { astToString } from "openapi-typescript";

const TYPES_FILE = "packages/types/src/schema.d.ts";

export const typesGenerator = {
  name: "types",
  inputs: ["bundle"],
  outputs: [TYPES_FILE],
  async generate({ inputs }) {
    const ast = await openapiTS(inputs.bundle.doc, {
      alphabetize: false,
      exportType: false,
      rootTypes: false,
      defaultNonNullable: false,
      emptyObjectsUnknown: true,
    });
    return { files: { [TYPES_FILE]: `// ${GENERATED_NOTICE}\n${astToString(ast)}` } };
  },
};
