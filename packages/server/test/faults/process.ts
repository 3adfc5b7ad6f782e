// The real server for the fault suite: `node dist/cli.js serve` as an operator starts it (run `pnpm run build`
// first; ../support/servers.mjs), on a free port, with an organization of its own, and raw connections to it
// that send exactly the bytes a test gives and time what comes back. On PostgreSQL each server gets a database
// of its own (../support/databases.mjs), dropped when it exits.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { temporaryStorage } from "../support/databases.mjs";
import { runCli, startServer } from "../support/servers.mjs";

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
  const storage = await temporaryStorage(database, { prefix: "faults" });
  try {
    const env = { ...settings, ...storage.env, REDIS_URL: "" };
    const tokenFile = join(storage.dataDir, "faults-token");
    await runCli(["org", "create", "--name", "faults", "--token-file", tokenFile], env);
    const token = readFileSync(tokenFile, "utf8").trim();
    const server = await startServer({ env, logLevel: "error", stderr: "inherit", timeoutMs: 30_000 });
    const cleanedUp = server.exited.finally(() => storage.remove());
    return {
      url: server.url,
      port: server.port,
      token,
      child: server.child,
      async stop() {
        const stopped = await server.stop();
        await cleanedUp;
        return stopped;
      },
    };
  } catch (error) {
    await storage.remove();
    throw error;
  }
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
