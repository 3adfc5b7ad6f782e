// Further generators that derive code from the bundled contract. Each takes the bundled document and
// returns { path relative to the repo: contents }. scripts/generate.mjs runs them after the bundle.
import { generateClient } from "./generate-client.mjs";

export const generators = [generateClient];
