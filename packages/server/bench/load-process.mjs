// One autocannon load in a process of its own (see loadInProcess): two loads run at once each get a CPU's
// worth of event loop, and each reports the CPU it used, so that a saturated load generator shows. (Not a
// worker thread: autocannon run off the main thread answers its own aggregation format, not its results.)
import { fork } from "node:child_process";
import { load } from "./measure.mjs";

/** `load(target, options)` run in a child process; resolves with its figures and `cpuMs`, the CPU it used. */
export function loadInProcess(target, options) {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url), ["--load"], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let answer;
    child.once("message", (message) => {
      answer = message;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (answer?.error) reject(new Error(answer.error));
      else if (answer) resolve(answer);
      else reject(new Error(`${target.label}: the load's process exited with ${code}`));
    });
    child.send({ target, options });
  });
}

if (process.argv[2] === "--load" && process.send) {
  process.once("message", async ({ target, options }) => {
    try {
      const started = process.cpuUsage();
      const result = await load(target, options);
      const used = process.cpuUsage(started);
      process.send({ ...result, cpuMs: (used.user + used.system) / 1000 }, () => process.exit(0));
    } catch (error) {
      process.send({ error: String(error?.stack ?? error) }, () => process.exit(1));
    }
  });
}
