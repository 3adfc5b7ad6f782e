/** How much a finding matters: `error` fails the gate unless a major changeset is pending. */
export type Level = "error" | "warning" | "info";

/** Every rule the differ reports, with its level and a one-line example. */
export declare const RULES: Readonly<Record<string, { level: Level; example: string }>>;
/** Levels from most to least severe. */
export declare const LEVELS: readonly ["error", "warning", "info"];
/** The level of a rule id; throws on an unknown id. */
export declare function levelOf(rule: string): Level;

export interface OperationRef {
  operationId: string;
  method: string;
  path: string;
}

/** One change to one operation: its rule id and level, and where in the operation it happened. */
export interface Finding {
  rule: string;
  level: Level;
  operation: OperationRef;
  /** `body.note`, `query.limit`, `response.work.tags`, `responses.400`, `security`, or "" for the operation. */
  where: string;
  message: string;
}

export interface ContractDiff {
  findings: Finding[];
  counts: Record<Level, number>;
  schemas: { added: string[]; removed: string[] };
}

/** Compares two bundled OpenAPI contracts operation by operation; neither document is changed. */
export declare function diffContracts(base: unknown, head: unknown): ContractDiff;

export interface GateResult {
  pass: boolean;
  errors: number;
  warnings: number;
  /** The pending changesets (`.changeset/<id>.md`) whose major bump acknowledges the error-level changes. */
  acknowledgedBy: string[];
  /** Changesets declaring a major bump when the contract has no error-level change. */
  accidentalMajor: string[];
  group: { label: string; packages: string[]; version: string; nextVersion: string | undefined };
  notes: string[];
}

/** Decides the release gate from the pending changesets of the repository at `root`. */
export declare function evaluateGate(
  diff: ContractDiff,
  where: { root: string; specFile: string },
): Promise<GateResult>;

export interface ReportContext {
  base?: string;
  head?: string;
  gate?: GateResult;
}

/** Renders a diff as text (terminals), Markdown (pull request comments) or JSON (machines). */
export declare function formatReport(
  diff: ContractDiff,
  format: "markdown" | "text" | "json",
  context?: ReportContext,
): string;
/** `2 errors, 1 warning, 3 info`, or `no changes to any operation`. */
export declare function summarize(counts: Record<Level, number>): string;
export declare function groupByOperation(
  findings: Finding[],
): { operation: OperationRef; findings: Finding[]; worst: Level }[];

export declare const USAGE: string;
/** Runs the command line and resolves to its exit code (0 passed, 1 failed, 2 usage or input error). */
export declare function main(
  argv: string[],
  io?: { cwd?: string; stdout?: (s: string) => void; stderr?: (s: string) => void; isTTY?: boolean },
): Promise<number>;
/** The longest Markdown report `formatReport` writes (GitHub refuses comments over 65536 characters). */
export declare const MARKDOWN_LIMIT: number;
