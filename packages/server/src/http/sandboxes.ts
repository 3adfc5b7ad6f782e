// What a request in a sandbox meets beyond its operation: scenarios (./scenarios.ts), the request journal
// (./journal.ts), and, in every process, the deletion of sandboxes past their expiry
// (../store/sandbox-expiry.ts). The operations themselves are ../operations/sandboxes.ts.
import type { Contract } from "../core/contract.js";
import type { SandboxSettings } from "../core/sandbox-settings.js";
import { sweepEvery } from "../store/sandbox-expiry.js";
import type { Store } from "../store/types.js";
import { journal } from "./journal.js";
import { shared } from "./plugin.js";
import { SandboxOrgs } from "./sandbox-orgs.js";
import { scenarios } from "./scenarios.js";

export interface SandboxingOptions {
  contract: Contract;
  store: Store;
  settings: SandboxSettings;
}

export const sandboxing = shared<SandboxingOptions>(async (fastify, { contract, store, settings }) => {
  const sandboxOrgs = new SandboxOrgs(store);
  await fastify.register(scenarios, { contract, sandboxOrgs, maxDelayMs: settings.sandboxMaxDelayMs });
  await fastify.register(journal, { store, sandboxOrgs, journalMax: settings.sandboxJournalMax });
  const sweep = sweepEvery(store, settings.sandboxSweepSeconds, (error) =>
    fastify.log.error({ err: error }, "deleting expired sandboxes failed"),
  );
  fastify.addHook("onClose", async () => sweep.stop());
});
