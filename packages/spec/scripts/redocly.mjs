// Bundles the split contract with Redocly's library, in this process: starting the Redocly CLI for it took
// about a second and a half of each `pnpm generate`, and `pnpm dev` bundles on every save. The library is the
// line whose bundle is byte for byte the CLI's (test/bundle.test.ts compares them); lint stays the CLI's
// (`pnpm lint:spec`). Loaded on first use, so a run whose bundle is cached never loads it.
import { join, relative } from "node:path";

let core;

/**
 * The contract `spec/openapi.yaml` of `root` bundled into one document (references to other files inlined,
 * those inside components kept), as redocly.yaml configures it. Throws, naming each file, line and message,
 * when a file does not parse or a reference resolves to nothing.
 */
export async function bundleContract(root) {
  core ??= await import("@redocly/openapi-core");
  const config = await core.loadConfig({ configPath: join(root, "redocly.yaml") });
  // A fresh resolver each time: its cache would otherwise keep a file's contents from before a save.
  let result;
  try {
    result = await core.bundle({
      ref: join(root, "spec", "openapi.yaml"),
      config,
      externalRefResolver: new core.BaseResolver(config.resolve),
    });
  } catch (error) {
    // The root file that does not parse is thrown (Redocly's YamlParseError: its source, line and reason).
    if (error?.line === undefined || !error.source) throw error;
    const file = relative(root, error.source.absoluteRef);
    const message = error.originalError?.reason ?? error.message;
    throw new ContractError(root, [], [{ file, line: error.line, message }]);
  }
  const { bundle, problems } = result;
  const errors = problems.filter((problem) => problem.severity === "error");
  if (errors.length > 0) throw new ContractError(root, errors);
  return bundle.parsed;
}

/**
 * Redocly's lint problems of the contract in `root` (redocly.yaml's rules): [{ level, rule, file, line, pointer,
 * message }], `level` being error or warning. `pnpm dev` shows them on every save; `pnpm lint:spec` (the CLI)
 * stays the check.
 */
export async function lintContract(root) {
  core ??= await import("@redocly/openapi-core");
  const config = await core.loadConfig({ configPath: join(root, "redocly.yaml") });
  const problems = await core.lint({
    ref: join(root, "spec", "openapi.yaml"),
    config,
    externalRefResolver: new core.BaseResolver(config.resolve),
  });
  return problems.map((problem) => {
    const at = problem.location?.[0];
    return {
      level: problem.severity === "warn" ? "warning" : problem.severity,
      rule: problem.ruleId,
      file: at?.source?.absoluteRef ? relative(root, at.source.absoluteRef) : "spec/openapi.yaml",
      line: lineOf(at),
      pointer: at?.pointer,
      message: problem.message,
    };
  });
}

/** A contract that does not bundle; `problems` are { file, line, message } (file relative to the root). */
export class ContractError extends Error {
  constructor(root, errors, found = []) {
    const problems = found.concat(
      errors.map((problem) => {
        const at = problem.location?.[0];
        const file = at?.source?.absoluteRef ? relative(root, at.source.absoluteRef) : "spec/openapi.yaml";
        const line = at?.start?.line ?? lineOf(at);
        return { file, line, message: problem.message };
      }),
    );
    super(
      `the contract does not bundle:\n${problems.map((p) => `  ${p.file}${p.line ? `:${p.line}` : ""}: ${p.message}`).join("\n")}`,
    );
    this.problems = problems;
  }
}

/** The line a problem's location points at, found from its JSON pointer in the source. */
function lineOf(at) {
  try {
    return at ? core.getLineColLocation(at)?.start?.line : undefined;
  } catch {
    return undefined;
  }
}
