// The thread the docs generator (./generate.mjs) compiles the console's request checks on: Ajv's standalone
// compiler takes most of a second for this contract, and on a thread of its own it runs while the page is
// rendered on the main thread (the types are made on a third; the machine this was measured on has two
// cores, which the three share). Started, and Ajv loaded here, while the bundle is made; it stays for the next
// run (`pnpm dev`) and does not keep the process alive. Each message is { id, part, components, schemas }, one
// part of ./request-schemas.mjs's checkedSchemas ('bodies' or 'queries'); each answer is { id, value }, value
// being { name, source }, the generated module and the name the console's script imports it by, or
// { id, error }.
import { parentPort } from "node:worker_threads";
import { CHECK_MODULES, standaloneValidators } from "./request-validators.mjs";

parentPort.on("message", ({ id, part, components, schemas }) => {
  try {
    const { name, kind } = CHECK_MODULES[part];
    parentPort.postMessage({
      id,
      value: { name, source: standaloneValidators({ components }, kind, schemas) },
    });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
