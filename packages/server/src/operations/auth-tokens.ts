import type { AuthToken } from "@workapi/types";
import { notFound } from "../http/errors.js";
import type { TokenRecord } from "../store/types.js";
import type { Handlers } from "./types.js";

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
