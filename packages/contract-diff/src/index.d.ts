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
  /** For a removal: where the removed node stood in the base (a review comments there, on the LEFT side). */
  removedAt?: SourceLine;
  /** Every operation the change reaches. */
  operations: Reach[];
  /** Why the level was lowered to info (read-only in a request, unstable operations only). */
  note?: string;
  /** Error-level findings: the operations' examples that the other side's schema refuses. */
  evidence?: Evidence[];
}

/** An example of the contract that shows a break: refused by the other side's schema. */
export interface Evidence {
  operationId: string;
  in: "request" | "response";
  status?: string;
  media: string;
  /** The example's name (`example` for a media type's single `example`). */
  example: string;
  refusedBy: "base" | "head";
  /** The validator's error at the finding's place: `/title must NOT have more than 3 characters`. */
  error: string;
}

/** A pull request review comment of the github-review format. */
export interface ReviewComment {
  path: string;
  line: number;
  side: "LEFT" | "RIGHT";
  body: string;
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
  /** What a loaded split spec knows of its files before parsing them (loadContract's; none for fromDocument). */
  sources?: SpecSources;
}

/**
 * The files of a loaded split spec, each parsed only when something reads it: the differ compares what two
 * sides' files reach by their text, and parses only what a change touches.
 */
export interface SpecSources {
  /** Each file's key (its path from the entry's folder, `""` for the entry) and a hash of its text. */
  hashes: ReadonlyMap<string, string>;
  /**
   * A token for everything the node at `pointer` can reach: its file and every file that file reaches, by
   * text. Equal tokens on both sides of a change, at the same pointer, mean equal nodes.
   */
  reach(pointer: string): string | undefined;
  /** Parses a file now (the differ parses every file whose text a change touches, so a broken one is refused). */
  parse(key: string): void;
}

/** Compares two loaded contracts; neither document is changed. */
export declare function diffSpecs(
  base: LoadedSpec,
  head: LoadedSpec,
  options?: { now?: Date; deprecationDays?: number; evidence?: boolean },
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
export declare function loadContract(
  source: string | Source,
  options?: { cwd?: string; root?: string; spec?: string; label?: string },
): Promise<LoadedSpec & { files: string[]; version: string }>;
/** The tags of the repository at `root` that the git glob `pattern` matches (`@workapi/spec@*`), highest version first. */
export declare function tagsMatching(root: string, pattern: string): string[];

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

export type Format = "text" | "markdown" | "json" | "junit" | "github" | "sarif" | "github-review";
export declare const FORMATS: readonly Format[];
export declare const MARKDOWN_LIMIT: number;
/** GitHub's limit on a review body and on each comment, in characters. */
export declare const GITHUB_LIMIT: number;
/** A diff's hunks by file: the line ranges (both ends included) on the base (LEFT) and head (RIGHT) sides. */
export type Hunks = Map<string, { LEFT: [number, number][]; RIGHT: [number, number][] }>;
export declare function formatReport(
  report: Report,
  format: Format,
  context?: { gate?: GateResult; sourceUrl?: string; review?: { commitId?: string; hunks?: Hunks } },
): string;
/** The bump a report requires of the fixed group: major for an unaccepted error, minor for additions, else patch. */
export declare function requiredBump(
  report: Report,
  accepted?: AcceptEntry[],
): { bump: "major" | "minor" | "patch" | undefined; reason: string };
/** The body of GitHub's "create a review" call, as the github-review format writes it. */
export interface Review {
  commit_id?: string;
  body: string;
  event: "COMMENT";
  comments: ReviewComment[];
}
/** The pull request a review is posted on. */
export interface ReviewTarget {
  apiUrl: string;
  token: string;
  repository: string;
  pullNumber: number;
  fetch?: typeof fetch;
}
/** What posting a review did to the pull request's comments. */
export interface PostOutcome {
  reviewId?: number;
  reviewUpdated?: number;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
}
/** Posts a github-review report, updating or deleting its own earlier comments (found by their marker). */
export declare function postReview(review: Review, target: ReviewTarget): Promise<PostOutcome>;
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
  io?: {
    cwd?: string;
    stdout?: (s: string) => void;
    stderr?: (s: string) => void;
    isTTY?: boolean;
    env?: Record<string, string | undefined>;
  },
): Promise<number>;
