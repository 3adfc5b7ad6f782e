// Sandboxes past their expiry are deleted by every server process in turn (WORKAPI_SANDBOX_SWEEP_SECONDS):
// each deletion runs in a transaction under the sandbox's own lock, so two processes that find the same
// sandbox delete it once between them (the second finds nothing left).
import type { Store } from "./types.js";

/** Sandboxes deleted per round at most; the rest wait for the next round. */
const PER_ROUND = 50;

/** Deletes the sandbox whose organization is `orgId` with everything of it, unless it is already gone. */
export async function deleteSandbox(store: Store, orgId: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.holdLock(`sandbox:${orgId}`);
    await tx.sandboxes().deleteOrg(orgId);
  });
}

/** One round: the sandboxes expired by now, deleted; answers how many. */
export async function sweepExpired(store: Store): Promise<number> {
  const expired = await store.sandboxes().expired(PER_ROUND);
  for (const orgId of expired) await deleteSandbox(store, orgId);
  return expired.length;
}

/** Runs sweepExpired every `seconds` (0: never) until the answer's `stop`; a failed round is logged. */
export function sweepEvery(store: Store, seconds: number, log: (error: unknown) => void): { stop(): void } {
  if (seconds <= 0) return { stop() {} };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExpired(store)
      .catch(log)
      .finally(() => {
        running = false;
      });
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
