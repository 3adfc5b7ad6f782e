import { readFileSync } from "node:fs";

/** The path of the bundled contract as JSON. */
export const specPath = new URL("./openapi.json", import.meta.url);

/** The bundled OpenAPI 3.1 contract, parsed. Every call returns a fresh copy that the caller may change. */
export function loadSpec() {
  return JSON.parse(readFileSync(specPath, "utf8"));
}
