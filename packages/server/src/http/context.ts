// What a handler sees of the request that reached it: the store (a transaction's store for writes), the
// caller, the operation, and the checks of scopes that depend on a record's type. Built by ./routes.ts.
import type { Actor, DevUser, Org, Store, TokenRecord } from "../store/types.js";
import type { Operation } from "./contract.js";

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
  /** Whether the token holds one of the scopes `x-scopes-by-type` gives for this type. */
  allowsType(type: string): boolean;
  /** Throws `forbidden` (naming `objectIds` where the operation carries them) unless allowsType(type). */
  requireType(type: string, objectIds?: string[]): void;
}
