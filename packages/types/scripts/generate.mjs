// The types generator: packages/types/src/schema.d.ts, openapi-typescript's types of the bundled contract, made
// on a thread of its own (./types-thread.mjs).
import { GENERATED_NOTICE } from "@workapi/spec/generated-notice";
import { generatorThread } from "@workapi/spec/generator-thread";

const TYPES_FILE = "packages/types/src/schema.d.ts";

// openapi-typescript loads there (@workapi/spec/generator-thread) while the bundle is made.
const thread = generatorThread(new URL("./types-thread.mjs", import.meta.url), "openapi-typescript failed");

/** The types of `doc`, from the thread. */
function typesOf(doc) {
  // Sent as a copy: openapi-typescript changes the document it is handed (a `const` becomes an `enum`), and
  // the docs page reads this same document.
  return thread.run({ doc });
}

export const typesGenerator = {
  name: "types",
  inputs: ["bundle"],
  outputs: [TYPES_FILE],
  // The types are the bundle's alone, with this code: the cache of scripts/generate-cache.mjs keys on them.
  reads: [
    "packages/types/scripts/generate.mjs",
    "packages/types/scripts/types-thread.mjs",
    "packages/spec/scripts/generated-notice.mjs",
    "packages/spec/scripts/generator-thread.mjs",
  ],
  // The bundle is being made anew: the types will be too, so the thread starts loading TypeScript meanwhile.
  prepare() {
    thread.start();
  },
  async generate({ inputs }) {
    return { files: { [TYPES_FILE]: `// ${GENERATED_NOTICE}\n${await typesOf(inputs.bundle.doc)}` } };
  },
};
