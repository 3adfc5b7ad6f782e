// The one way tests and benchmarks start the built server as an operator does (`node dist/cli.js serve`; run
// `pnpm run build` first) and run its other commands. Plain JavaScript with a declaration file beside it
// (./servers.d.mts), because the benchmarks (../../bench/*.mjs) run in node without a TypeScript loader and
// import it as the tests do.
import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The built command. */
export const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

const execFileAsync = promisify(execFile);

/**
 * Runs a command of the built CLI (`token create`, `org create`, `seed`...) with `env` over the process's
 * environment; answers its stdout and stderr, or rejects with them when it exits with a failure.
 */
export function runCli(args, env = {}, options = {}) {
  return execFileAsync(process.execPath, [cli, ...args], { ...options, env: { ...process.env, ...env } });
}

/**
 * Resolves with the URL of the "listening on" line `child` prints, once its output (stdout, and stderr when it
 * is piped) also matches `until` when given (the banner's last line: the server answers from then on);
 * rejects when the child exits first or after `timeoutMs`, with what it printed. `output()` reads everything
 * printed so far, also after it resolves; `stdout()` what of it came on stdout (the banner's stream).
 */
export function listening(child, { until, timeoutMs = 60_000 } = {}) {
  let output = "";
  let stdout = "";
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)));
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => (output += String(chunk)));
  const url = new Promise((resolve, reject) => {
    const found = () => {
      const at = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      return at && (!until || until.test(output)) ? at : undefined;
    };
    // Polled, not read on each chunk: `until` may arrive on the other stream than the URL.
    const poll = setInterval(() => {
      const at = found();
      if (at) finish(() => resolve(at));
    }, 10);
    const timer = setTimeout(
      () => finish(() => reject(new Error(`the server did not start in ${timeoutMs} ms:\n${output}`))),
      timeoutMs,
    );
    const onExit = (code, signal) =>
      finish(() =>
        reject(new Error(`the server exited with ${code ?? signal} before listening:\n${output}`)),
      );
    const finish = (settle) => {
      clearInterval(poll);
      clearTimeout(timer);
      child.off("exit", onExit);
      settle();
    };
    child.once("exit", onExit);
  });
  return { url, output: () => output, stdout: () => stdout };
}

/**
 * The arguments of `node` that start the built server's `serve` (the one command line tests and benchmarks
 * start it with): on `port` (0: one the system picks) of `host` (null: no flag, the server's default), with
 * `logLevel` when given, then `args`; `nodeArgs` go to node itself and `entry` replaces dist/cli.js (the bench's
 * profile runs another build of it).
 */
export function serveCommand({
  port = 0,
  host = "127.0.0.1",
  logLevel,
  args = [],
  nodeArgs = [],
  entry = cli,
} = {}) {
  return [
    ...nodeArgs,
    entry,
    "serve",
    "--port",
    String(port),
    ...(host ? ["--host", host] : []),
    ...(logLevel ? ["--log-level", logLevel] : []),
    ...args,
  ];
}

/**
 * Starts `node dist/cli.js serve` on a free port of 127.0.0.1 (unless `args` give others; `host: null` gives
 * none, for a test of the default) with `env` over the process's environment, and resolves once it listens
 * (see `listening`). `stderr: "inherit"` shows the server's errors in the test's own output instead of
 * collecting them.
 */
export async function startServer({
  env = {},
  args = [],
  logLevel = "warn",
  host = "127.0.0.1",
  until,
  timeoutMs,
  stderr = "pipe",
  cwd,
} = {}) {
  const child = spawn(process.execPath, serveCommand({ host, logLevel, args }), {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", stderr],
    ...(cwd ? { cwd } : {}),
  });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  const started = listening(child, { until, timeoutMs });
  const url = await started.url.catch(async (error) => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await exited;
    throw error;
  });
  return {
    child,
    url,
    port: Number(new URL(url).port),
    output: started.output,
    stdout: started.stdout,
    exited,
    async stop(signal = "SIGTERM") {
      const began = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      return { code, ms: Date.now() - began };
    },
  };
}

/** A POST of JSON to `url` + `path` with a bearer token; answers the status and the parsed body (or text). */
export async function postJson(url, token, path, body, headers = {}) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the assertions that expect JSON fail on the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
