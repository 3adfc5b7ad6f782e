// The benchmark's child processes: each in its own process group, its stdout and stderr in a log file under
// the run's work directory, stopped with SIGTERM (SIGKILL after 10 s).
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { serveCommand } from "../test/support/servers.mjs";

/** The helpers of one run: `work` holds the logs, children run in `serverDir`. */
export function childProcesses({ work, serverDir }) {
  const children = new Set();

  /**
   * Environment of a workapi child: the given mode, no PostgreSQL or Redis unless asked for, and every other
   * setting as shipped (load shedding on): every figure describes the server a user starts. The environment's
   * WORKAPI_* settings pass through, so a run that changes a default says so in its command.
   */
  function serverEnv(mode, databaseUrl) {
    const { DATABASE_URL: _d, REDIS_URL: _r, ...env } = process.env;
    return { ...env, NODE_ENV: mode, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
  }

  function start(name, command, args, env = process.env) {
    const logFile = join(work, `${name}.log`);
    const fd = openSync(logFile, "a");
    const child = spawn(command, args, { env, stdio: ["ignore", fd, fd], detached: true, cwd: serverDir });
    closeSync(fd);
    const proc = { name, child, logFile, exited: false, startedAt: performance.now() };
    child.once("exit", () => {
      proc.exited = true;
      children.delete(proc);
    });
    children.add(proc);
    return proc;
  }

  async function stop(proc) {
    if (proc.exited) return;
    const exited = new Promise((done) => proc.child.once("exit", done));
    process.kill(-proc.child.pid, "SIGTERM");
    const timer = setTimeout(() => !proc.exited && process.kill(-proc.child.pid, "SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Polls until the URL answers 200; returns milliseconds since the process was spawned. */
  async function ready(proc, url, headers = {}, timeoutMs = 120_000) {
    for (;;) {
      if (proc.exited) throw new Error(`${proc.name} exited before it answered:\n${tail(proc)}`);
      try {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - proc.startedAt;
      } catch {
        // not listening yet
      }
      if (performance.now() - proc.startedAt > timeoutMs) {
        throw new Error(
          `${proc.name} did not answer 200 on ${url} within ${timeoutMs / 1000} s:\n${tail(proc)}`,
        );
      }
      await sleep(5);
    }
  }

  /**
   * The built server serving on a free port of 127.0.0.1 with `env`, started with the tests' command line
   * (../test/support/servers.mjs, serveCommand: `args`, `nodeArgs`, `entry`, `logLevel`); `url` is where. Not
   * waited for: `ready` times its start from the spawn.
   */
  async function startServer(env, { name = "server", ...command } = {}) {
    const port = await freePort();
    const proc = start(name, process.execPath, serveCommand({ port, ...command }), env);
    proc.url = `http://127.0.0.1:${port}`;
    return proc;
  }

  return { children, freePort, serverEnv, start, startServer, stop, ready, rssMb };
}

/** A free port of 127.0.0.1. */
function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** The last lines of a child's log. */
function tail(proc) {
  return readFileSync(proc.logFile, "utf8").split("\n").slice(-15).join("\n");
}

/** A child's resident memory (MB). */
function rssMb(proc) {
  const status = readFileSync(`/proc/${proc.child.pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}
