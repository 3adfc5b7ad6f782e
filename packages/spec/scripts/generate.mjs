// The bundle generator: bundles the split contract in spec/ into one document with Redocly, writes a curl and
// a TypeScript sample into every operation (scripts/code-samples.mjs) and writes the document as
// packages/spec/openapi.json and openapi.yaml. The later generators read the bundled document, samples
// included, and the docs page the samples' variables: its value is { doc, sampleVariables }.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addCodeSamples } from "./code-samples.mjs";
import { GENERATED_NOTICE } from "./generated-notice.mjs";
import { generatorThread } from "./generator-thread.mjs";
import { bundleContract } from "./redocly.mjs";

const JSON_FILE = "packages/spec/openapi.json";
const YAML_FILE = "packages/spec/openapi.yaml";
const SPEC_PACKAGE = "packages/spec/package.json";

const yamlThread = generatorThread(
  new URL("./yaml-thread.mjs", import.meta.url),
  "the bundle's YAML was not made",
);

export const bundleGenerator = {
  name: "bundle",
  inputs: [],
  outputs: [JSON_FILE, YAML_FILE],
  // What the bundle is made from besides its code: the cache of scripts/generate-cache.mjs keys on them.
  reads: ["spec", "redocly.yaml", SPEC_PACKAGE, "packages/spec/scripts", "packages/spec/index.js"],
  async generate({ root }) {
    // Loads `yaml` on its thread while Redocly bundles.
    yamlThread.start();
    const doc = { "x-generated": GENERATED_NOTICE, ...(await bundleContract(root)) };
    // The contract's version is the packages' (they version together): `changeset version` sets it in
    // packages/spec/package.json and `pnpm version-packages` regenerates the bundle with it.
    doc.info.version = JSON.parse(readFileSync(join(root, SPEC_PACKAGE), "utf8")).version;
    // Samples are part of the published contract (any OpenAPI tool shows x-codeSamples).
    const sampleVariables = addCodeSamples(doc);
    const json = `${JSON.stringify(doc, null, 2)}\n`;
    // The YAML (a quarter of a second for this contract), which no later generator reads, is made on a thread
    // of its own (./yaml-thread.mjs) once they have started (scripts/generate-run.mjs calls `files` then); from
    // the JSON, so from the document as it is now, whatever a reader does with its copy meanwhile.
    const files = async () => ({ [JSON_FILE]: json, [YAML_FILE]: await yamlThread.run({ json }) });
    return { files, value: { doc, sampleVariables } };
  },
};
