// The thread the types generator (./generate.mjs) runs openapi-typescript on: TypeScript's printer takes most
// of a second for this contract, and on a thread of its own it runs while the docs page is rendered on the
// other core. The thread stays, with openapi-typescript loaded, for the next run (`pnpm dev` runs on every
// save); it does not keep the process alive. Each message is a bundled document (sent as a copy, which
// openapi-typescript may change as it likes); each answer is { id, value } (the text) or { id, error }.
//
// openapi-typescript's default export (`openapiTS`) starts by linting and bundling the document again with
// Redocly (validateAndBundle) and then calls its exported `transformSchema`. The document handed here is
// already Redocly's bundle (packages/spec/scripts/redocly.mjs, with references inside components kept, which
// is what openapiTS's own bundle gives back for it), and the contract is linted by `pnpm lint:spec` with a
// stricter rule set than openapiTS's ("minimal" plus operation-operationId-unique, both in redocly.yaml's
// recommended-strict). So this thread builds openapiTS's context itself, with the same options and defaults,
// and calls `transformSchema`: neither Redocly's library is loaded here nor the document walked twice more.
// The output is byte for byte openapiTS's (`pnpm drift` compares it with the committed types).
//
// The modules are openapi-typescript's CommonJS build, required: TypeScript (a CommonJS file of 9 MB) is then
// loaded by require, about half a second less on this machine than when an ES module imports it (Node then
// also checks its syntax for the module format and scans it for its export names).
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
const transformSchema = require("openapi-typescript/dist/transform/index.cjs");
const { scanDiscriminators, resolveRef } = require("openapi-typescript/dist/lib/utils.cjs");
const { astToString } = require("openapi-typescript/dist/lib/ts.cjs");

/** The options this repository generates its types with. */
const OPTIONS = {
  alphabetize: false,
  exportType: false,
  rootTypes: false,
  defaultNonNullable: false,
  emptyObjectsUnknown: true,
};

/** openapiTS's context for `schema` and OPTIONS (openapi-typescript 7's defaults for the options not set). */
function contextOf(schema) {
  return {
    additionalProperties: false,
    alphabetize: OPTIONS.alphabetize,
    arrayLength: false,
    defaultNonNullable: OPTIONS.defaultNonNullable,
    discriminators: scanDiscriminators(schema, OPTIONS),
    emptyObjectsUnknown: OPTIONS.emptyObjectsUnknown,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: OPTIONS.exportType,
    immutable: false,
    rootTypes: OPTIONS.rootTypes,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined,
    silent: false,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve($ref) {
      return resolveRef(schema, $ref, { silent: false });
    },
  };
}

parentPort.on("message", ({ id, doc }) => {
  try {
    parentPort.postMessage({ id, value: astToString(transformSchema(doc, contextOf(doc))) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
