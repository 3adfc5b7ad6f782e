// What a request in a sandbox meets beyond its operation: scenarios (./scenarios.ts), the request journal
// (./journal.ts), and, in every process, the deletion of sandboxes past their expiry
// (../store/sandbox-expiry.ts). The operations themselves are ../operations/sandboxes.ts.
import type { Contract } from "../core/contract.js";
import { sandboxSettings } from "../core/sandbox-settings.js";
import { sweepEvery } from "../store/sandbox-expiry.js";
import type { Store } from "../store/types.js";
import { journal } from "./journal.js";
import { shared } from "./plugin.js";
import { SandboxOrgs } from "./sandbox-orgs.js";
import { scenarios } from "./scenarios.js";

export interface SandboxingOptions {
  contract: Contract;
  store: Store;
}

export const sandboxing = shared<SandboxingOptions>(async (fastify, { contract, store }) => {
  const sandboxOrgs = new SandboxOrgs(store);
  await fastify.register(scenarios, { contract, sandboxOrgs });
  await fastify.register(journal, { store, sandboxOrgs });
  const sweep = sweepEvery(store, sandboxSettings().sweepSeconds, (error) =>
    fastify.log.error({ err: error }, "deleting expired sandboxes failed"),
  );
  fastify.addHook("onClose", async () => sweep.stop());
});
