// What a handler sees of the request that reached it: the store (a transaction's store for writes), the
// caller, the operation, and the checks of scopes that depend on a record's type. Built by the executor
// (./executor.ts) alone, on whichever thread runs the operation.
import type { Actor, DevUser, Org, Store, TokenRecord } from "../store/types.js";
import { type Authenticated, requireScopes } from "./auth.js";
import type { Operation } from "./contract.js";
import type { SandboxServices } from "./sandbox-settings.js";

export interface Context {
  store: Store;
  actor: Actor;
  org: Org;
  user: DevUser;
  token: TokenRecord;
  operation: Operation;
  requestId: string;
  /** The base address of this server as the request reached it (`http://host:port`). */
  baseUrl: string;
  /** The sandboxes' settings, and the seed of their demo data, as the server was given them. */
  sandboxes: SandboxServices;
  /** Whether the token holds one of the scopes `x-scopes-by-type` gives for this type. */
  allowsType(type: string): boolean;
  /** Throws `forbidden` (naming `objectIds` where the operation carries them) unless allowsType(type). */
  requireType(type: string, objectIds?: string[]): void;
}

/** What a context takes from the request: its id, and where the client reached this server. */
export interface RequestFacts {
  requestId: string;
  baseUrl: string;
}

export function contextFor(
  store: Store,
  auth: Authenticated,
  operation: Operation,
  { requestId, baseUrl }: RequestFacts,
  sandboxes: SandboxServices,
): Context {
  const typeScopes = (type: string) => operation.scopesByType?.scopes[type] ?? [];
  return {
    store,
    actor: auth.actor,
    org: auth.org,
    user: auth.user,
    token: auth.token,
    operation,
    requestId,
    baseUrl,
    sandboxes,
    allowsType: (type) => typeScopes(type).some((scope) => auth.token.scopes.includes(scope)),
    requireType(type, objectIds) {
      requireScopes(auth.token, typeScopes(type).length > 0 ? typeScopes(type) : ["(none)"], objectIds);
    },
  };
}
