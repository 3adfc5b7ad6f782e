// The thread the types generator (./generate.mjs) runs openapi-typescript on: TypeScript's printer takes most
// of a second for this contract, and on a thread of its own it runs while the docs page is rendered on the
// other core. The thread stays, with openapi-typescript loaded, for the next run (`pnpm dev` runs on every
// save); it does not keep the process alive. Each message is a bundled document (sent as a copy, which
// openapi-typescript may change as it likes); each answer is { text } or { error }.
import { parentPort } from "node:worker_threads";
import openapiTS, { astToString } from "openapi-typescript";

parentPort.on("message", async ({ id, doc }) => {
  try {
    const ast = await openapiTS(doc, {
      alphabetize: false,
      exportType: false,
      rootTypes: false,
      defaultNonNullable: false,
      emptyObjectsUnknown: true,
    });
    parentPort.postMessage({ id, text: astToString(ast) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
