// Bearer tokens: random secrets shown once, stored only as SHA-256 hashes, each with a type, a subject (a dev
// user), scopes, an expiry and a status.
import { createHash, randomBytes } from "node:crypto";
import type { Snapshot } from "../store/changes.js";
import type { Actor, DevUser, Org, Store, TokenRecord } from "../store/types.js";
import { apiError } from "./errors.js";

export const DEFAULT_TOKEN_TYPE = "urn:vendor:params:oauth:token-type:pat";

export function hashToken(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** How many bearer secrets `hashOfBearer` remembers the hash of. */
const REMEMBERED_HASHES = 1024;
const rememberedHashes = new Map<string, string>();

/**
 * `hashToken` of a secret sent as a bearer, remembered for the secrets sent last: callers send the same token
 * on every request, and the hash was the largest cost left of a kept read after the answer itself. Only
 * what the caller sent is kept, in this process's memory, where it already passes on every request.
 */
function hashOfBearer(secret: string): string {
  let hash = rememberedHashes.get(secret);
  if (hash === undefined) {
    hash = hashToken(secret);
    if (rememberedHashes.size >= REMEMBERED_HASHES) {
      for (const oldest of rememberedHashes.keys()) {
        rememberedHashes.delete(oldest);
        break;
      }
    }
    rememberedHashes.set(secret, hash);
  }
  return hash;
}

/** A new secret: a recognisable prefix and 32 random bytes. */
export function newTokenSecret(): string {
  return `wkp_${randomBytes(32).toString("base64url")}`;
}

export interface IssuedToken {
  secret: string;
  token: TokenRecord;
}

export async function issueToken(
  store: Store,
  actor: Actor,
  options: {
    subject?: string;
    scopes: string[];
    type?: string;
    clientId?: string | null;
    /** Lifetime in seconds; none: the token does not expire. */
    expiresIn?: number;
    /** A note to tell the token apart; default: the secret's last four characters. */
    tokenHint?: string;
    /** The secret, when the operator chose it (WORKAPI_ADMIN_TOKEN); default: a new random one. */
    secret?: string;
  },
): Promise<IssuedToken> {
  const secret = options.secret ?? newTokenSecret();
  const token = await store.createToken(actor, {
    subject: options.subject ?? actor.user.id,
    hash: hashToken(secret),
    token_hint: options.tokenHint ?? secret.slice(-4),
    requested_token_type: options.type ?? DEFAULT_TOKEN_TYPE,
    scopes: [...new Set(options.scopes)].sort(),
    client_id: options.clientId ?? null,
    expires_at:
      options.expiresIn === undefined ? null : new Date(Date.now() + options.expiresIn * 1000).toISOString(),
  });
  return { secret, token };
}

export function actorOf(org: Org, user: DevUser): Actor {
  const { org_id: _org, created_date: _created, ...summary } = user;
  return { orgId: org.id, orgNumber: org.number, user: summary };
}

/** The token of a request: `Authorization: Bearer <token>`, or the bare token as some clients send it. */
export function readBearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const match = /^bearer\s+(.+)$/i.exec(trimmed);
  const secret = (match ? match[1] : trimmed)?.trim();
  return secret ? secret : undefined;
}

export interface Authenticated {
  token: TokenRecord;
  org: Org;
  user: DevUser;
  actor: Actor;
}

/**
 * Resolves the caller. `orgCheck` is false on the operations whose interface errors have no
 * dev_org_deactivated (the org-schedule ones): a deactivated organization is then plainly unauthenticated.
 */
export async function authenticate(
  store: Store,
  header: string | undefined,
  orgCheck: boolean,
  at?: Snapshot,
): Promise<Authenticated> {
  const secret = readBearer(header);
  if (!secret) {
    throw apiError(
      "unauthenticated",
      "Send the header 'Authorization: Bearer <token>' with a token issued by this server.",
    );
  }
  const credentials = await store.findCredentials(hashOfBearer(secret), at);
  if (!credentials) {
    throw apiError("unauthenticated", "The token is not known to this server; check it or issue a new one.");
  }
  const { token, org, user } = credentials;
  if (token.status === "revoked") {
    throw apiError("token_revoked", "This token was revoked; issue a new one.");
  }
  if (token.expires_at !== null && Date.parse(token.expires_at) <= Date.now()) {
    throw apiError("token_expired", `This token expired at ${token.expires_at}; issue a new one.`);
  }
  if (!org || !user) {
    throw apiError("unauthenticated", "The token's organization or user no longer exists.");
  }
  if (org.status !== "active") {
    if (!orgCheck) {
      throw apiError("unauthenticated", "The organization of this token was deactivated.");
    }
    throw apiError(
      "dev_org_deactivated",
      "The organization of this token was deactivated; ask its administrator.",
    );
  }
  return { token, org, user, actor: actorOf(org, user) };
}

/** Throws `forbidden` unless the token holds one of `alternatives` (an empty list needs no scope). */
export function requireScopes(token: TokenRecord, alternatives: string[], objectIds?: string[]): void {
  if (alternatives.length === 0 || alternatives.some((scope) => token.scopes.includes(scope))) return;
  throw apiError(
    "forbidden",
    `This needs one of the scopes: ${alternatives.join(", ")}.`,
    objectIds ? { object_ids: objectIds } : {},
  );
}
