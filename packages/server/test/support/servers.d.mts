// The types of ./servers.mjs.
import type { ChildProcess, ExecFileOptions } from "node:child_process";

export declare const cli: string;

export declare function runCli(
  args: string[],
  env?: Record<string, string | undefined>,
  options?: Omit<ExecFileOptions, "env">,
): Promise<{ stdout: string; stderr: string }>;

export declare function serveCommand(options?: {
  port?: number;
  /** The --host flag (default 127.0.0.1); null: none, the server's default. */
  host?: string | null;
  logLevel?: string;
  args?: string[];
  nodeArgs?: string[];
  entry?: string;
}): string[];

export declare function listening(
  child: ChildProcess,
  options?: { until?: RegExp; timeoutMs?: number },
): { url: Promise<string>; output(): string; stdout(): string };

export interface ServerChild {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything it printed so far (stdout, and stderr unless inherited). */
  output(): string;
  /** What of it came on stdout (the banner's stream). */
  stdout(): string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM by default) unless it has exited; the exit code and how long it took. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

export declare function startServer(options?: {
  env?: Record<string, string | undefined>;
  args?: string[];
  logLevel?: string;
  /** The --host flag (default 127.0.0.1); null: none, the server's default. */
  host?: string | null;
  until?: RegExp;
  timeoutMs?: number;
  stderr?: "pipe" | "inherit" | "ignore";
  cwd?: string;
}): Promise<ServerChild>;

export declare function postJson(
  url: string,
  token: string,
  path: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<{
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in each test
  body: any;
}>;
