// The thread the docs generator (./generate.mjs) compiles the console's request checks on: Ajv's standalone
// compiler takes most of a second for this contract, and on a thread of its own it runs while the page is
// rendered on the main thread (the types are made on a third; the machine this was measured on has two
// cores, which the three share). Started, and Ajv loaded here, while the bundle is made; it stays for the next
// run (`pnpm dev`) and does not keep the process alive. Each message is { id, components, schemas } (the
// contract's components and ./request-schemas.mjs's schemas); each answer is { id, value } (the generated
// modules by name, as requestValidatorModules answers them) or { id, error }.
import { parentPort } from "node:worker_threads";
import { requestValidatorModules } from "./request-validators.mjs";

parentPort.on("message", ({ id, components, schemas }) => {
  try {
    parentPort.postMessage({ id, value: requestValidatorModules({ components }, schemas) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
