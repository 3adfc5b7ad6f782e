// Types of ./parallel-suite.mjs, for the fault suite that imports it.
export interface ParallelSuiteResult {
  requests: number;
  refused: number;
  serverErrors: number;
  unexpected: Array<{ operation: string; status: number; type: string }>;
  createMs: number[];
  ms: number[];
}
export function parallelSuite(options: {
  url: string;
  token: string;
  files: number;
  rounds?: number;
  seed?: boolean;
}): Promise<ParallelSuiteResult>;
export function percentileOf(values: number[], p: number): number;
