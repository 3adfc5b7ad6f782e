// The thread the bundle generator (./generate.mjs) writes the bundle's YAML on: the `yaml` package takes about
// a tenth of a second for this contract (a quarter without V8's optimizing compiler, as `pnpm generate` runs),
// which on the main thread came after the page, the client and the other readers of the bundle and before
// their answers were taken in. Started, and `yaml` loaded, while Redocly bundles; it stays for the next run
// (`pnpm dev`) and does not keep the process alive. Each message is { id, json } (the bundle's JSON text); each
// answer is { id, value } (the YAML file's text) or { id, error }.
import { parentPort } from "node:worker_threads";
import { GENERATED_NOTICE } from "./generated-notice.mjs";
import { documentYaml } from "./yaml-document.mjs";

parentPort.on("message", ({ id, json }) => {
  try {
    parentPort.postMessage({ id, value: `# ${GENERATED_NOTICE}\n${documentYaml(JSON.parse(json))}` });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
