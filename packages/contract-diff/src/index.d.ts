/** How much a finding matters: `error` fails the gate unless this change acknowledges it. */
export type Level = "error" | "warning" | "info";
export declare const LEVELS: readonly ["error", "warning", "info"];

/** A before/after pair in shorthand (see the package README, "Rules"). */
export interface Given {
  request?: [unknown, unknown];
  response?: [unknown, unknown];
  parameter?: [unknown, unknown];
  operation?: [unknown, unknown];
  document?: [unknown, unknown];
  policy?: { deprecationDays?: number };
}

/** A change event as the engine reports it to the rules: these fields, and those of its kind. */
export interface ChangeEvent {
  kind: string;
  change?: string;
  direction?: "request" | "response";
  where: string;
  pointer: string;
  side: "base" | "head";
  flags?: Record<string, boolean>;
  // biome-ignore lint/suspicious/noExplicitAny: each kind of event carries fields of its own, read by its rules
  [field: string]: any;
}

export interface Policy {
  now: Date;
  deprecationDays: number;
}

export interface Rule {
  id: string;
  level: Level;
  /** One line: what the rule reports and why it has its level. */
  doc: string;
  /** The kind of change event the rule reads. */
  on: string;
  when(event: ChangeEvent, policy: Policy): boolean;
  message(event: ChangeEvent, policy: Policy): string;
  given: Given;
}

/** Every rule, one module each. */
export declare const RULES: readonly Rule[];

export interface SourceLine {
  /** The file of the split spec, relative to the repository (`spec/components/schemas/Tag.yaml`). */
  file: string;
  line: number;
  /** The pointer inside that file. */
  pointer?: string;
}

export interface Reach {
  operationId: string;
  method: string;
  path: string;
  /** Where the change sits in this operation: `response(201).tag.name`, `query.limit`, `body.title`. */
  where: string;
}

export interface Finding {
  rule: string;
  level: Level;
  message: string;
  /** The place of the change: a schema (`Tag.name`) when it reaches several operations, else the operation's place. */
  where: string;
  /** A stable key for the accepted-breaks file: `<file>#<pointer>`, or `<METHOD> <path> <where>`. */
  location: string;
  side: "base" | "head";
  pointer: string;
  source?: SourceLine;
  /** Every operation the change reaches. */
  operations: Reach[];
  /** Why the level was lowered to info (read-only in a request, unstable operations only). */
  note?: string;
}

export interface Report {
  base: string;
  head: string;
  findings: Finding[];
  counts: Record<Level, number>;
  schemas: { added: string[]; removed: string[] };
}

export interface LoadedSpec {
  // biome-ignore lint/suspicious/noExplicitAny: any OpenAPI document, read as JSON
  document: Record<string, any>;
  label: string;
  origin(pointer: string): SourceLine | undefined;
}

/** Compares two loaded contracts; neither document is changed. */
export declare function diffSpecs(
  base: LoadedSpec,
  head: LoadedSpec,
  options?: { now?: Date; deprecationDays?: number },
): Report;
/** A plain document as a loaded spec (findings carry no source lines). */
export declare function fromDocument(document: Record<string, unknown>, label?: string): LoadedSpec;

/** A source that cannot be read, or is not OpenAPI 3.0 or 3.1. */
export declare class InputError extends Error {}
/** What a source argument names, decided once: an http(s) URL, a file, or a git revision and its commit. */
export type Source =
  | { kind: "url"; name: string }
  | { kind: "file"; name: string; path: string }
  | { kind: "revision"; name: string; sha: string };
/** Reads a file (JSON or YAML, single or split), an http(s) URL, or the spec at a git revision. */
export declare function loadSpec(
  source: string | Source,
  options?: { cwd?: string; root?: string; spec?: string; label?: string },
): Promise<LoadedSpec & { files: string[]; version: string }>;

export interface AcceptEntry {
  rule: string;
  location: string;
  reason: string;
}

export interface GateResult {
  pass: boolean;
  errors: number;
  warnings: number;
  /** Error-level findings neither accepted nor, yet, acknowledged. */
  unacknowledged: number;
  /** The changesets added by this change whose major bump acknowledges its errors. */
  acknowledgedBy: string[];
  accepted: { finding: Finding; entry: AcceptEntry }[];
  /** Accepted-breaks entries that match no finding any more. */
  staleAccepts: AcceptEntry[];
  /** Major changesets pending from earlier changes (they acknowledge nothing here). */
  pendingMajors: string[];
  accidentalMajor: string[];
  group: { label: string; packages: string[]; version: string; nextVersion: string | undefined };
  notes: string[];
}

export declare const DEFAULT_ACCEPT_FILE: string;
export declare function readAcceptFile(path: string): AcceptEntry[];
export declare function addedChangesets(
  root: string,
  baseRef?: string,
): { files: Set<string>; note?: string };
export declare function evaluateGate(
  report: Report,
  where: { root: string; baseRef?: string; spec: string; acceptFile?: string; packageName?: string },
): Promise<GateResult>;

export type Format = "text" | "markdown" | "json" | "junit" | "github" | "sarif";
export declare const FORMATS: readonly Format[];
export declare const MARKDOWN_LIMIT: number;
export declare function formatReport(
  report: Report,
  format: Format,
  context?: { gate?: GateResult; sourceUrl?: string },
): string;
export declare function summarize(counts: Record<Level, number>): string;
export declare function rulesTable(
  rules: readonly Pick<Rule, "id" | "level" | "doc">[],
  format?: "markdown" | "text" | "json",
): string;
/** The contract changes of a report as release notes, grouped by operation. */
export declare function changelog(
  report: Report,
  options?: { format?: "markdown" | "json" | "text"; title?: string },
): string;

export declare const USAGE: string;
/** Runs the command line; resolves to its exit code (0 passed, 1 failed, 2 bad input or usage). */
export declare function main(
  argv: string[],
  io?: { cwd?: string; stdout?: (s: string) => void; stderr?: (s: string) => void; isTTY?: boolean },
): Promise<number>;
