// `serve --workers N`: N server processes sharing one port through node:cluster (the primary accepts the
// connections and hands them to the workers in turn). The primary opens the store first, so migrations and the
// first organization are made once, before any worker starts; then it forks the workers, prints the banner once
// every one listens, restarts a worker that dies, and on SIGTERM/SIGINT has every worker drain and exit, then
// exits 0. Each worker is the one-process server (./server.ts) without its own banner.
import cluster, { type Worker } from "node:cluster";
import { pino } from "pino";
import { type ServerConfig, WORKER_SLOT, workerSlot } from "./config.js";
import { runSeed } from "./seed-cli.js";
import { announce, bootstrap, type StartOptions, startServer } from "./server.js";
import { openStore, type StoreLogger } from "./store/open.js";

/** A worker that dies within this long of its start is restarted after a growing delay, not at once. */
const STEADY_MS = 10_000;
const MAX_RESTART_DELAY_MS = 10_000;

/** What a worker tells the primary once it listens. */
interface Listening {
  listening: string;
}

/** Why `--workers N` cannot run with `config`, or undefined when it can. */
export function workersRefused(config: ServerConfig): string | undefined {
  if (config.workers > 1 && !config.redisUrl) {
    return (
      `--workers ${config.workers} needs Redis (--redis-url or REDIS_URL): without it each worker counts ` +
      `the rate limits on its own and a token could make ${config.workers} times its limit`
    );
  }
  return undefined;
}

/** `serve`: one process when `config.workers` is 1, else a primary and its workers (this module's header). */
export async function serve(config: ServerConfig, options: StartOptions): Promise<void> {
  if (cluster.isWorker) return serveAsWorker(config);
  if (config.workers <= 1) {
    await startServer(config, { ...options, signals: true });
    return;
  }
  const refused = workersRefused(config);
  if (refused) throw new Error(refused);
  await servePrimary(config, options);
}

async function serveAsWorker(config: ServerConfig): Promise<void> {
  const running = await startServer(config, {
    signals: true,
    print: () => {},
    // The worker in slot 0 (of 0 to N - 1, given by the primary) keeps the planner's statistics.
    statistics: workerSlot() === "0",
  });
  // Without its primary (killed), nothing reaches this worker any more: it stops as on SIGTERM.
  process.once("disconnect", () => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  process.send?.({ listening: running.address } satisfies Listening);
}

async function servePrimary(config: ServerConfig, options: StartOptions): Promise<void> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const logger = pino({ level: config.logLevel });
  const first = await prepareStore(config, options, logger);

  const slots = new Map<Worker, { slot: number; startedAt: number }>();
  /** The workers that have said they listen; one stopped before it did has no request to drain. */
  const listens = new WeakSet<Worker>();
  const delays = new Map<number, number>();
  let stopping = false;
  let up = false;
  const fork = (slot: number) => {
    const worker = cluster.fork({ [WORKER_SLOT]: String(slot) });
    slots.set(worker, { slot, startedAt: Date.now() });
    return worker;
  };

  const everyoneListens = new Promise<string>((resolve, reject) => {
    const listening = new Map<number, string>();
    cluster.on("message", (worker, message: Listening) => {
      const slot = slots.get(worker)?.slot;
      if (slot === undefined || typeof message?.listening !== "string") return;
      listening.set(slot, message.listening);
      listens.add(worker);
      if (up) logger.info({ worker: slot + 1, workerPid: worker.process.pid }, "the new worker listens");
      else if (listening.size === config.workers) resolve(message.listening);
    });
    cluster.on("exit", (worker, code, signal) => {
      const held = slots.get(worker);
      slots.delete(worker);
      if (!held || stopping) return;
      if (!up) {
        reject(new Error(`worker ${held.slot + 1} exited at start (${signal ?? `code ${code}`})`));
        return;
      }
      // A worker that dies soon after its start (a database that is down) is not restarted in a tight loop.
      const lived = Date.now() - held.startedAt;
      const delay =
        lived >= STEADY_MS ? 0 : Math.min((delays.get(held.slot) ?? 50) * 2, MAX_RESTART_DELAY_MS);
      delays.set(held.slot, delay);
      logger.error(
        { worker: held.slot + 1, workerPid: worker.process.pid, code, signal, restartInMs: delay },
        "a worker died; starting another",
      );
      setTimeout(() => {
        if (!stopping) fork(held.slot);
      }, delay).unref();
    });
  });

  for (let slot = 0; slot < config.workers; slot++) fork(slot);
  let address: string;
  try {
    address = await everyoneListens;
  } catch (error) {
    stopping = true;
    await stopWorkers([...slots.keys()], listens, config.shutdownTimeoutMs);
    throw error;
  }
  up = true;
  const pids = [...slots.keys()].map((worker) => worker.process.pid).join(", ");
  announce(config, first, address, print, `${config.workers} (pids ${pids})`);

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down: every worker drains, then exits");
      stopWorkers([...slots.keys()], listens, config.shutdownTimeoutMs).then((clean) =>
        process.exit(clean ? 0 : 1),
      );
    });
  }
}

/** Migrations and the first organization (seeded if asked), once, before any worker opens the store. */
async function prepareStore(config: ServerConfig, options: StartOptions, logger: StoreLogger) {
  const store = await openStore({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    dataDir: config.dataDir,
    logger,
  });
  try {
    const first = await bootstrap(store, { adminToken: config.adminToken });
    if (first.issued && options.seedOnFirstStart)
      await runSeed(store, first.org, first.admin, { settings: config });
    return first;
  } finally {
    await store.close();
  }
}

/**
 * Sends SIGTERM to every worker (each drains its requests for at most `timeoutMs`, then exits) and waits for
 * them all; a worker still running well past its drain time is killed. True when every one exited 0, or was
 * ended by the signal before it listened (still starting, it had nothing to drain).
 */
async function stopWorkers(workers: Worker[], listens: WeakSet<Worker>, timeoutMs: number): Promise<boolean> {
  const exits = workers.map(
    (worker) =>
      new Promise<boolean>((resolve) => {
        if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
          resolve(worker.process.exitCode === 0);
          return;
        }
        worker.process.once("exit", (code, signal) =>
          resolve(code === 0 || (signal === "SIGTERM" && !listens.has(worker))),
        );
        worker.process.kill("SIGTERM");
      }),
  );
  const killer =
    timeoutMs > 0
      ? setTimeout(() => {
          for (const worker of workers) if (worker.process.exitCode === null) worker.process.kill("SIGKILL");
        }, timeoutMs + 5_000)
      : undefined;
  const clean = await Promise.all(exits);
  clearTimeout(killer);
  return clean.every(Boolean);
}
