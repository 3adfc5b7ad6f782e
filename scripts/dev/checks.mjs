// What `pnpm dev` tells the contract's author besides the generated files: Redocly's lint problems and the
// contract review against the base (workapi-contract-diff's findings), each linked to its operation, or, for a
// problem in a schema's file, to the schema. Run in a process of its own (./check-process.mjs), so that a
// lint never holds up the next save's regeneration.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { diffSpecs, loadContract } from "@workapi/contract-diff";
import { HTTP_METHODS } from "@workapi/spec";
import { lintContract } from "@workapi/spec/redocly";

/** The operationId a lint problem's place belongs to: a path file's operation, read from the bundled `doc`. */
function operationOfPlace(doc, file, pointer) {
  const path = file.match(/^spec\/paths\/(.+)\.yaml$/)?.[1];
  if (!path || !doc) return undefined;
  const item = doc.paths?.[`/${path}`];
  const method = pointer?.split("/")[1];
  const operation = item?.[HTTP_METHODS.includes(method) ? method : HTTP_METHODS.find((m) => item?.[m])];
  return operation?.operationId;
}

/** The named schema a file of spec/components/schemas/ holds (the docs page has a part for each). */
function schemaOfFile(doc, file) {
  const name = file.match(/^spec\/components\/schemas\/(.+)\.yaml$/)?.[1];
  return name && doc?.components?.schemas?.[name] ? name : undefined;
}

/** The last bundle written in `root` (the last good contract), or undefined. */
export function lastBundle(root) {
  try {
    return JSON.parse(readFileSync(join(root, "packages", "spec", "openapi.json"), "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Redocly's lint problems of the contract in `root`, each with its file and line, and the operationId or the
 * named schema it belongs to, if any (read from the bundled `doc`).
 */
export async function lintProblems(root, doc) {
  const problems = await lintContract(root);
  return problems.map(({ pointer, ...problem }) => ({
    ...problem,
    operationId: operationOfPlace(doc, problem.file, pointer),
    schema: schemaOfFile(doc, problem.file),
  }));
}

/** Loads the base contract once: a git revision of `root`, or a file. */
export function baseContract(root, base) {
  return loadContract(base, { root });
}

/** The contract review of the working spec of `root` against `base`: { counts, findings } as the JSON format. */
export async function review(root, base) {
  const head = await loadContract(join(root, "spec", "openapi.yaml"), { root });
  const report = diffSpecs(await base, head, {});
  const findings = report.findings.map((finding) => ({
    level: finding.level,
    rule: finding.rule,
    message: finding.message,
    where: finding.where,
    file: finding.source?.file,
    line: finding.source?.line,
    operations: (finding.operations ?? []).map((operation) => operation.operationId),
  }));
  return { counts: report.counts, findings };
}
