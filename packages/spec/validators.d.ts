import type { Ajv2020, Options } from "ajv/dist/2020.js";
import type { VALIDATOR_OPTIONS } from "./index.js";

/** The kinds of validator the contract is checked with: request bodies, query strings, answers. */
export type ValidatorKind = keyof typeof VALIDATOR_OPTIONS;

/**
 * A new Ajv (JSON Schema 2020-12, with ajv-formats) made with `VALIDATOR_OPTIONS[kind]` and `overrides` on
 * top, without checking schemas against the meta-schema.
 */
export declare function createAjv(kind: ValidatorKind, overrides?: Options): Ajv2020;
