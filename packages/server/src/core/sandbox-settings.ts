// What the sandboxes' operations (../operations/sandboxes.ts) are handed by the server that runs them: their
// settings (read once, with the others, by ../config.ts) and the seed that makes the demo data set a seeded
// sandbox copies. The seed calls the operations, so it reaches them as an argument, never as an import.
import type { SandboxSettings } from "../config.js";
import type { DevUser, Org, Store } from "../store/types.js";

export type { SandboxSettings };

/** Loads the demo data set into `org`, whose first user is `admin` (../seed/index.ts). */
export type DemoSeeder = (store: Store, org: Org, admin: DevUser) => Promise<unknown>;

export interface SandboxServices {
  settings: SandboxSettings;
  seedDemo: DemoSeeder;
}

/** The scope that lets a token make, see and delete sandboxes; a sandbox's own token never holds it. */
export const SANDBOX_ADMIN_SCOPE = "sandbox:admin";
