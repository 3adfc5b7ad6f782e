// The one way validators of this contract are made: Ajv's JSON Schema 2020-12 class with the formats of
// ajv-formats and VALIDATOR_OPTIONS. A subpath of its own, so that importing `@workapi/spec` does not load Ajv;
// and Ajv itself is loaded on the first createAjv, so that importing this file does not either (the contract
// review loads it only when a finding has examples to check; the server only on its first validated request).
import { createRequire } from "node:module";
import { VALIDATOR_OPTIONS } from "./index.js";

const require = createRequire(import.meta.url);
let modules;

function ajvModules() {
  if (!modules) {
    // Both are CommonJS, so `require` loads them synchronously; ajv-formats's plugin is its `default` (or the
    // module itself, as a bundler may leave it).
    const formats = require("ajv-formats");
    modules = { Ajv2020: require("ajv/dist/2020.js").Ajv2020, addFormats: formats.default ?? formats };
  }
  return modules;
}

/**
 * A new Ajv (JSON Schema 2020-12, with ajv-formats) made with VALIDATOR_OPTIONS[kind] and `overrides` on top.
 * The schemas given to it are not checked against the meta-schema (`validateSchema: false`): the contract's
 * lint and tests check them at build time, and compiling the meta-schema cost a cold start some 70 ms.
 */
export function createAjv(kind, overrides = {}) {
  const options = VALIDATOR_OPTIONS[kind];
  if (!options) throw new Error(`no validator options named ${kind}`);
  const { Ajv2020, addFormats } = ajvModules();
  const ajv = new Ajv2020({ ...options, ...overrides, validateSchema: false });
  addFormats(ajv);
  return ajv;
}
