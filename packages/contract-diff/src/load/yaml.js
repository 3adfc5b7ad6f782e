// The two YAML readers of the loader, each loaded on first use rather than with the module (a review whose
// files are all JSON, or whose findings land in no YAML file, loads neither, or only one). Both are CommonJS
// under Node, so `require` loads them synchronously, which lets a finding's line be read without making every
// caller async.
// - Values come from js-yaml with its YAML 1.2 core schema, which reads a contract's files about four times
//   as fast as the `yaml` package's documents: a review parses hundreds of files at two revisions, and that
//   parse was most of its time. The core schema reads what `yaml` reads by default (no timestamps, `<<` a
//   plain key; test/yaml-readers.test.ts compares the two on every YAML file of the contract's history and
//   the fixtures).
// - Lines come from the `yaml` package's documents, which keep each node's position: built only for the
//   files a finding lands in (./index.js, linesOf), and for a file js-yaml refuses, so that the error a
//   reader sees is the one `yaml` gives, with its line.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** @type {typeof import("yaml") | undefined} */
let loaded;
/** @type {typeof import("js-yaml") | undefined} */
let values;

/** The `yaml` package. @returns {typeof import("yaml")} */
export const yaml = () => (loaded ??= require("yaml"));

/**
 * A YAML text's value (YAML 1.2, core schema, duplicate keys refused), or undefined when js-yaml refuses it:
 * the caller then reads it with `yaml`, for the error or, should the two ever differ on what is valid, for
 * the value.
 * @param {string} text @returns {{ value: import("../engine/json.js").Json } | undefined}
 */
export function yamlValue(text) {
  values ??= require("js-yaml");
  const reader = /** @type {typeof import("js-yaml")} */ (values);
  try {
    return {
      value: /** @type {import("../engine/json.js").Json} */ (
        reader.load(text, { schema: reader.CORE_SCHEMA })
      ),
    };
  } catch {
    return undefined;
  }
}
