/**
 * The options every validator of this contract is made with (Ajv, JSON Schema 2020-12): `inputs` for request
 * bodies, `queries` for query strings (a lone value read as a one-item list), `outputs` for answers (every
 * error listed). The reference server validates with them, and the contract review shows breaks with them, so
 * both say the same about the same example.
 */
export const VALIDATOR_OPTIONS = Object.freeze({
  inputs: Object.freeze({ strict: false, allErrors: false, useDefaults: true, coerceTypes: false }),
  queries: Object.freeze({ strict: false, allErrors: false, useDefaults: true, coerceTypes: "array" }),
  outputs: Object.freeze({ strict: false, allErrors: true }),
});
