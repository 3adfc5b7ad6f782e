// What stops a release while the contract has operations marked `x-unreleased` (spec/README.md): such an
// operation was added since the last release and the reference server may only answer its documented
// example for it (x-workapi-example-only), so it must not ship as if released. Read from the bundled
// contract of the spec package being released (its openapi.json, which `pnpm drift` keeps equal to spec/).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { operationsOf } from "@workapi/spec";

/** The operations of `doc` marked x-unreleased: [{ method, path, operationId }], in the contract's order. */
export function unreleasedOperations(doc) {
  return operationsOf(doc)
    .filter(({ operation }) => operation["x-unreleased"] === true)
    .map(({ method, path, operationId }) => ({ method: method.toUpperCase(), path, operationId }));
}

/**
 * Why the release of the packages in `dirs` must stop, or undefined: when the spec package (@workapi/spec) is
 * among them and its bundled contract still marks operations x-unreleased, a message naming each one.
 */
export function unreleasedProblem(dirs) {
  const spec = dirs.find((dir) => {
    const file = join(dir, "package.json");
    return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).name === "@workapi/spec";
  });
  if (!spec) return undefined;
  const found = unreleasedOperations(JSON.parse(readFileSync(join(spec, "openapi.json"), "utf8")));
  if (found.length === 0) return undefined;
  const named = found.map(({ method, path, operationId }) => `${method} ${path} (${operationId})`);
  return (
    `${found.length} operation${found.length === 1 ? " is" : "s are"} still marked x-unreleased: ${named.join(", ")}. ` +
    "Write their handlers in the reference server and remove x-unreleased from them in spec/ (then pnpm generate), " +
    "or take them out of the contract, before releasing."
  );
}
