// The one way validators of this contract are made: Ajv's JSON Schema 2020-12 class with the formats of
// ajv-formats and VALIDATOR_OPTIONS. A subpath of its own, so that importing `@workapi/spec` does not load Ajv:
// the contract review loads this module only when a finding has examples to check, and the reference server's
// command bundles it (scripts/bundle-cli.mjs of @workapi/server), Ajv included, as it bundled Ajv before.
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { VALIDATOR_OPTIONS } from "./validator-options.js";

// ajv-formats is CommonJS with its plugin as `default` (or the module itself, as a bundler may leave it).
const addFormats = formats.default ?? formats;

/**
 * A new Ajv (JSON Schema 2020-12, with ajv-formats) made with VALIDATOR_OPTIONS[kind] and `overrides` on top.
 * The schemas given to it are not checked against the meta-schema (`validateSchema: false`): the contract's
 * lint and tests check them at build time, and compiling the meta-schema cost a cold start some 70 ms.
 */
export function createAjv(kind, overrides = {}) {
  const options = VALIDATOR_OPTIONS[kind];
  if (!options) throw new Error(`no validator options named ${kind}`);
  const ajv = new Ajv2020({ ...options, ...overrides, validateSchema: false });
  addFormats(ajv);
  return ajv;
}
