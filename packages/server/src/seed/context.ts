// What every builder of the demo data works with: the caller that makes records through the executor, the
// seeded random source, and the tally of what was made.
import type { Call } from "./calls.js";
import type { random } from "./data.js";

/** Adds `n` records of a family to the summary. */
export type Count = (family: string, n?: number) => void;

export interface Builder {
  call: Call;
  rnd: ReturnType<typeof random>;
  count: Count;
}

/** What the first transaction makes and the later builders draw on. */
export interface Setup {
  userIds: string[];
  tagIds: string[];
  /** The tag that takes a value (low, medium, high). */
  severity: string;
  partIds: string[];
  stageIds: Record<string, string>;
  accountIds: string[];
  /** The sprint issues are planned in. */
  sprint: string;
}

/** The names of the custom stages, in order. */
export const STAGE_NAMES = ["triage", "in_development", "in_review", "resolved", "wont_fix"];
