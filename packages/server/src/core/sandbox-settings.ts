// What the sandboxes' operations (../operations/sandboxes.ts) are handed by the server that runs them: their
// settings (read once, with the others, by ../config.ts) and the seed that makes the demo data set a seeded
// sandbox copies. The seed calls the operations, so it reaches them as an argument, never as an import.
import type { SandboxSettings } from "../config.js";
import type { DevUser, Org, Store } from "../store/types.js";

export type { SandboxSettings };

/** Loads the demo data set into `org`, whose first user is `admin` (../seed/index.ts). */
export type DemoSeeder = (store: Store, org: Org, admin: DevUser) => Promise<unknown>;

/** Keeps seeded sandboxes made ahead (../operations/sandboxes.ts, SpareSandboxes). */
export interface SpareKeeper {
  /**
   * A seeded sandbox was made or taken: make spares up to the number kept, when nothing else runs. Resolves
   * when this round of making them ends (callers that do not wait need not).
   */
  wanted(): Promise<void>;
  /** Stops making spares; resolves once the one being made (if any) is done. */
  close(): Promise<void>;
}

export interface SandboxServices {
  settings: SandboxSettings;
  seedDemo: DemoSeeder;
  /**
   * Makes the keeper of spares for the root store `store` of the thread that runs writes; `busy` says whether
   * any write is being served there (spares are made only while none is). Called by the executor.
   */
  keepSpares?: (store: Store, busy: () => boolean) => SpareKeeper;
  /**
   * A new, empty SQLite store in memory, to seed the demo data set in apart (closed by the caller): on
   * PostgreSQL the template is seeded there and its rows written in a few statements (see demoTemplate).
   */
  scratchStore?: () => Promise<Store>;
  /** The keeper of this thread's spares, once the executor has made it. */
  spares?: SpareKeeper;
}

/** The scope that lets a token make, see and delete sandboxes; a sandbox's own token never holds it. */
export const SANDBOX_ADMIN_SCOPE = "sandbox:admin";
