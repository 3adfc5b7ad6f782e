// How the seed calls the operations: straight into their handlers, as the organization's admin with every
// scope, so the demo data obeys the same rules as data sent over HTTP.

import { actorOf } from "./http/auth.js";
import type { Operation } from "./http/contract.js";
import { JsonText } from "./http/json-text.js";
import { handlers } from "./operations/index.js";
import type { Context, Handler, Input, InterfaceName, Output } from "./operations/support/handler.js";
import type { DevUser, Org, Store, TokenRecord } from "./store/types.js";

/** A context for calling handlers as the organization's admin, with every scope. */
export function internalContext(
  store: Store,
  org: Org,
  user: DevUser,
  operations: Map<string, Operation>,
  scopes: string[],
) {
  const actor = actorOf(org, user);
  const now = new Date().toISOString();
  const token: TokenRecord = {
    id: "internal",
    display_id: "internal",
    org_id: org.id,
    subject: user.id,
    hash: "",
    token_hint: "",
    requested_token_type: "urn:vendor:params:oauth:token-type:sys",
    scopes,
    client_id: null,
    status: "active",
    issued_at: now,
    expires_at: null,
    created_by: user.id,
    created_date: now,
    modified_by: user.id,
    modified_date: now,
    object_version: 1,
  };
  return async <N extends InterfaceName>(name: N, input: Input<N>): Promise<Output<N>> => {
    const operation = operations.get(name);
    const handler = handlers[name] as Handler<N> | undefined;
    if (!operation || !handler) throw new Error(`seed: no operation ${name}`);
    const ctx: Context = {
      store,
      actor,
      org,
      user,
      token,
      operation,
      requestId: "seed",
      baseUrl: "http://localhost",
      allowsType: () => true,
      requireType: () => {},
    };
    const output = await handler(ctx, input);
    return output instanceof JsonText ? (JSON.parse(output.text) as Output<N>) : output;
  };
}

export type Call = ReturnType<typeof internalContext>;

/**
 * An artifact with an uploaded file: prepared, then uploaded once per content given (each upload is a
 * version), the way a client does it through artifacts.prepare and artifacts.upload.
 */
export async function uploadedArtifact(
  call: Call,
  name: string,
  type: string,
  contents: string[],
): Promise<string> {
  const { id } = await call("artifacts.prepare", { file_name: name, file_type: type });
  for (const content of contents) {
    const form = { id, file: { filename: name, mimetype: type, data: Buffer.from(content) } };
    // The upload handler reads a multipart form (fields and file parts), not the JSON the contract's type says.
    await call("artifacts.upload", form as unknown as Input<"artifacts.upload">);
  }
  return id;
}
