// @workapi/client/sandbox: a client of its own sandbox on the reference server, for a test file (or suite)
// that wants an organization nobody else writes to. A separate entry point: the main client's size budget
// does not carry it.
import type { Sandbox, SandboxRequest } from "@workapi/types";
import { type ClientOptions, createClient, type WorkApiClient } from "./client.js";

/** Options of {@link createSandbox}: the client's, with the operator's token, and the sandbox's own. */
export interface SandboxOptions extends Omit<ClientOptions, "token" | "throwOnError"> {
  /** A token that may make sandboxes: the server's first admin token, or one holding `sandbox:admin`. */
  token: string;
  /** Load the demo data set into the sandbox (300 works and the rest of `workapi-server seed`). */
  seed?: boolean;
  /** Seconds until the server deletes the sandbox by itself (default: the server's, 1 hour). */
  ttlSeconds?: number;
  /** A name to tell sandboxes apart, e.g. the test file's. */
  name?: string;
}

/** A client bound to one sandbox (its token), with the sandbox's facts, journal and deletion. */
export type SandboxClient = WorkApiClient & {
  /** The sandbox as created (its `token` included). */
  sandbox: Sandbox;
  /** The requests the sandbox received, oldest first (only those of `operation` when given). */
  requests(filter?: { operation?: string }): Promise<SandboxRequest[]>;
  /** Deletes the sandbox and every record of it; its token is refused from then on. */
  dispose(): Promise<void>;
};

/** Creates a sandbox with the operator's `token` and answers a client bound to it; throws an ApiError on failure. */
export async function createSandbox(options: SandboxOptions): Promise<SandboxClient> {
  const { token, seed, ttlSeconds, name, ...clientOptions } = options;
  const operator = createClient({ ...clientOptions, token, throwOnError: true });
  const { data } = await operator.sandboxes.create({
    ...(seed !== undefined ? { seed } : {}),
    ...(ttlSeconds !== undefined ? { ttl_seconds: ttlSeconds } : {}),
    ...(name !== undefined ? { name } : {}),
  });
  const sandbox = data.sandbox;
  const client = createClient({ ...clientOptions, token: sandbox.token as string });
  return Object.assign(client, {
    sandbox,
    requests: async (filter: { operation?: string } = {}) =>
      (await operator.sandboxes.requests.list.all({ id: sandbox.id, ...filter })).data,
    dispose: async () => {
      await operator.sandboxes.delete({ id: sandbox.id });
    },
  });
}
