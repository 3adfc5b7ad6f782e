import type { AuthToken } from "@workapi/types";
import { issueToken } from "../core/auth.js";
import { apiError, notFound, notPermitted } from "../core/errors.js";
import type { Handlers } from "../core/handlers.js";
import type { TokenRecord } from "../store/types.js";

/** The lifetime of a token issued by auth-tokens.create without `expires_in`: 30 days, in seconds. */
export const DEFAULT_TOKEN_LIFETIME = 30 * 24 * 60 * 60;
/** The latest expiry a date-time with a four-digit year can state. */
const LATEST_EXPIRY = Date.parse("9999-12-31T23:59:59.999Z");

/** Token metadata as the interface shows it: never the secret, nor its hash. */
export function tokenMetadata(token: TokenRecord, users: Map<string, AuthToken["created_by"]>): AuthToken {
  return {
    id: token.id,
    display_id: token.display_id,
    ...(users.get(token.created_by) ? { created_by: users.get(token.created_by) } : {}),
    created_date: token.created_date,
    ...(users.get(token.modified_by) ? { modified_by: users.get(token.modified_by) } : {}),
    modified_date: token.modified_date,
    object_version: token.object_version,
    ...(token.client_id ? { client_id: token.client_id } : {}),
    ...(token.expires_at ? { expires_at: token.expires_at } : {}),
    issued_at: token.issued_at,
    requested_token_type: token.requested_token_type as AuthToken["requested_token_type"],
    scopes: token.scopes,
    status: token.status,
    subject: token.subject,
    token_hint: token.token_hint,
  };
}

export const authTokens = {
  // A token for the caller, with scopes the caller's own token holds (all of them when `scope` is left out)
  // and, left out, the caller's token type.
  "auth-tokens.create": async (ctx, input) => {
    const scopes = input.scope === undefined ? ctx.token.scopes : [...new Set(input.scope.split(" "))];
    const beyond = scopes.filter((scope) => !ctx.token.scopes.includes(scope));
    if (beyond.length > 0) {
      throw apiError(
        "forbidden",
        `A new token can only hold scopes the caller's token holds; it does not hold: ${beyond.join(", ")}.`,
        { object_ids: [] },
      );
    }
    const expiresIn = input.expires_in ?? DEFAULT_TOKEN_LIFETIME;
    if (Date.now() + expiresIn * 1000 > LATEST_EXPIRY) {
      throw notPermitted(
        "expires_in",
        "too far in the future",
        `A token must expire by ${new Date(LATEST_EXPIRY).toISOString()}; ask for fewer seconds.`,
      );
    }
    const issued = await issueToken(ctx.store, ctx.actor, {
      scopes,
      type: input.requested_token_type ?? ctx.token.requested_token_type,
      clientId: input.client_id ?? null,
      expiresIn,
      ...(input.token_hint ? { tokenHint: input.token_hint } : {}),
    });
    return {
      access_token: issued.secret,
      token_type: "bearer",
      expires_in: expiresIn,
      scope: issued.token.scopes.join(" "),
    };
  },

  // Only the token's owner (its subject) may revoke it.
  "auth-tokens.delete": async (ctx, input) => {
    const token = await ctx.store.getToken(ctx.org.id, input.token_id);
    if (!token) throw notFound(`Token '${input.token_id}'`);
    if (token.subject !== ctx.user.id) {
      throw apiError(
        "forbidden",
        `Token '${input.token_id}' is not one of the caller's tokens; only its owner may revoke it.`,
        { object_ids: [token.id] },
      );
    }
    await ctx.store.revokeToken(ctx.actor, token.id);
    return {};
  },

  "auth-tokens.list": async (ctx, input) => {
    const subject = input.subject ?? ctx.user.id;
    const owner = await ctx.store.getDevUser(ctx.org.id, subject);
    if (!owner) throw notFound(`User '${subject}'`);
    const tokens = await ctx.store.listTokens(ctx.org.id, {
      subject: owner.id,
      ...(input.requested_token_type ? { requested_token_type: input.requested_token_type } : {}),
      ...(input.client_id ? { client_id: input.client_id } : {}),
    });
    const users = new Map(
      (await ctx.store.listDevUsers(ctx.org.id)).map(({ org_id: _o, created_date: _c, ...user }) => [
        user.id,
        user,
      ]),
    );
    return { tokens: tokens.map((token) => tokenMetadata(token, users)) };
  },
} satisfies Partial<Handlers>;
