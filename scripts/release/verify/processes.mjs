// The commands and daemons release:verify starts: each is kept until it ends, so that stopAll stops whatever
// is still running on success, failure or interrupt.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fail, root } from "./state.mjs";

const running = new Set();

export async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs a command to its end; answers its exit code, its stdout and all its output (printed when `echo`). */
export function run(
  command,
  args,
  { cwd = root, env = process.env, echo = false, timeoutMs = 300_000 } = {},
) {
  return new Promise((done, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    running.add(child);
    child.on("exit", () => running.delete(child));
    let output = "";
    let stdout = "";
    const take = (chunk) => {
      output += chunk;
      if (echo) process.stdout.write(chunk);
    };
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      take(chunk);
    });
    child.stderr.on("data", take);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} took longer than ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, output });
    });
  });
}

/** Runs a command that must succeed; answers its stdout. */
export async function mustRun(command, args, options) {
  const result = await run(command, args, options);
  if (result.code !== 0) fail(`${command} ${args.join(" ")} failed (exit ${result.code}):\n${result.output}`);
  return result.stdout;
}

/** Starts a long-running process in its own group (so that stopping it stops its children) and keeps it. */
export function startDaemon(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  return { child, output: () => output };
}

export function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM"); // a daemon leads its own process group
    } catch {
      child.kill("SIGTERM"); // a command run to its end does not
    }
  }
  running.clear();
}

export async function waitFor(what, probe, timeoutMs, output) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 250));
  }
  fail(`${what} did not come up within ${timeoutMs / 1000} s${output ? `:\n${output()}` : ""}`);
}
