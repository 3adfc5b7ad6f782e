// The real server for the fault suite: `node dist/cli.js serve` as an operator starts it (run `pnpm run build`
// first), on a free port, with an organization of its own, and raw connections to it that send exactly the
// bytes a test gives and time what comes back. On PostgreSQL each server gets a database of its own, dropped
// when it exits.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { temporaryDatabase } from "../../src/stand-in.js";

const cli = new URL("../../dist/cli.js", import.meta.url).pathname;
const run = promisify(execFile);

export type Database = "sqlite" | "postgres";

export interface ServerProcess {
  url: string;
  port: number;
  /** An admin token of the organization this server was started for (every scope). */
  token: string;
  child: ChildProcess;
  /** Sends SIGTERM; resolves with the exit code and the time it took to exit. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/** Starts the built server with `settings` (WORKAPI_* variables) on SQLite or on DATABASE_URL. */
export async function startServerProcess(
  database: Database,
  settings: Record<string, string>,
): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), "workapi-faults-"));
  const own =
    database === "postgres"
      ? await temporaryDatabase(process.env.DATABASE_URL as string, "faults")
      : undefined;
  const env = {
    ...process.env,
    ...settings,
    WORKAPI_DATA_DIR: dataDir,
    DATABASE_URL: own?.url ?? "",
    REDIS_URL: "",
  };
  const tokenFile = join(dataDir, "faults-token");
  await run(process.execPath, [cli, "org", "create", "--name", "faults", "--token-file", tokenFile], { env });
  const token = readFileSync(tokenFile, "utf8").trim();
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "error"],
    { env, stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const cleanedUp = exited.finally(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await own?.drop();
  });
  const url = await listeningUrl(child);
  return {
    url,
    port: Number(new URL(url).port),
    token,
    child,
    async stop() {
      const started = Date.now();
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      const ms = Date.now() - started;
      await cleanedUp;
      return { code, ms };
    },
  };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
}

/** What came back on a raw connection: the answer's status, headers and parsed body, and when it closed. */
export interface RawAnswer {
  status?: number;
  headers: Record<string, string>;
  body?: { type?: string; detail?: string; [key: string]: unknown };
  text: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  closedAfterMs: number;
  error?: string;
}

/** Opens a connection and returns it with a promise of everything received until the server closes it. */
export function rawConnection(
  port: number,
  limitMs = 20_000,
): { socket: Socket; answer: Promise<RawAnswer> } {
  const socket = connect(port, "127.0.0.1");
  const started = Date.now();
  const answer = new Promise<RawAnswer>((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (failure: Error & { code?: string }) => {
      error = failure.code ?? failure.message;
    });
    const timer = setTimeout(() => socket.destroy(), limitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString("utf8"), Date.now() - started, error));
    });
  });
  return { socket, answer };
}

/** Sends `bytes` on a new connection (and nothing after them) and waits for the server to close it. */
export function sendRaw(port: number, bytes: string | Buffer, limitMs?: number): Promise<RawAnswer> {
  const { socket, answer } = rawConnection(port, limitMs);
  socket.write(bytes);
  return answer;
}

function parseAnswer(text: string, closedAfterMs: number, error: string | undefined): RawAnswer {
  const [head = "", ...rest] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  let body: RawAnswer["body"];
  try {
    body = JSON.parse(rest.join("\r\n\r\n"));
  } catch {
    body = undefined;
  }
  return {
    ...(status ? { status: Number(status) } : {}),
    headers,
    ...(body ? { body } : {}),
    text,
    closedAfterMs,
    ...(error ? { error } : {}),
  };
}

/** The head of a request to send raw. */
export function requestHead(
  method: string,
  target: string,
  headers: Record<string, string | number>,
): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${target} HTTP/1.1\r\n${lines.join("")}\r\n`;
}
