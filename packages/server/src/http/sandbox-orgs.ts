// Which organizations are sandboxes, as the scenarios (./scenarios.ts) and the journal (./journal.ts) ask on
// every authenticated request. An organization is made a sandbox in the transaction that creates it and never
// becomes one later, and a deleted sandbox's tokens no longer authenticate, so each answer is kept: one
// lookup per organization and process.
import type { Store } from "../store/types.js";

/** Organizations whose answer is kept; past it the kept answers are forgotten and looked up again. */
const KEPT = 10_000;

export class SandboxOrgs {
  readonly #known = new Map<string, Promise<boolean>>();

  constructor(private readonly store: Store) {}

  isSandbox(orgId: string): Promise<boolean> {
    let known = this.#known.get(orgId);
    if (!known) {
      if (this.#known.size >= KEPT) this.#known.clear();
      known = this.store
        .sandboxes()
        .byOrg(orgId)
        .then((row) => row !== undefined);
      known.catch(() => this.#known.delete(orgId));
      this.#known.set(orgId, known);
    }
    return known;
  }
}
