// How the seed calls the operations: through the executor every route uses (../core/executor.ts), as the
// organization's admin holding every scope, so each seeded record is checked against the contract and made
// the way a client's request would make it.

import { DEFAULTS, type SandboxSettings, sandboxSettingsOf } from "../config.js";
import { actorOf } from "../core/auth.js";
import type { Operation } from "../core/contract.js";
import { ApiError } from "../core/errors.js";
import { createExecutor } from "../core/executor.js";
import type { Input, InterfaceName, Output } from "../core/handlers.js";
import type { Arrived } from "../core/input.js";
import { JsonText } from "../core/json-text.js";
import type { SandboxServices } from "../core/sandbox-settings.js";
import { handlers } from "../operations/index.js";
import type { DevUser, Org, Store, TokenRecord } from "../store/types.js";

/**
 * The sandboxes' services of the seed's own calls: it makes sandboxes without the demo data (./sandboxes.ts),
 * so it has no seed to hand them (and cannot import one: ./index.ts imports this module).
 */
function seedsNone(settings: SandboxSettings): SandboxServices {
  return {
    settings,
    seedDemo: () => Promise.reject(new Error("the seed makes no sandbox with the demo data set")),
  };
}

/** Calls operations on `store` as the organization's admin, with every scope. */
export function seedCaller(
  store: Store,
  org: Org,
  user: DevUser,
  operations: Map<string, Operation>,
  scopes: string[],
  sandboxSettings: SandboxSettings = sandboxSettingsOf(DEFAULTS),
) {
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
  const caller = { actor: actorOf(org, user), org, user, token };
  const executor = createExecutor({
    store,
    handlers,
    validateResponses: false,
    violations: [],
    sandboxes: seedsNone(sandboxSettings),
  });
  const facts = { requestId: "seed", baseUrl: "http://localhost" };
  const run = async (name: InterfaceName, arrived: Arrived): Promise<unknown> => {
    const operation = operations.get(name);
    if (!operation) throw new Error(`seed: no operation ${name}`);
    const output = await executor.run(operation, caller, facts, arrived).catch((error: unknown) => {
      // A record the contract refuses is a fault of the seed (or of the contract): say which and why.
      if (error instanceof ApiError)
        throw new Error(`seed: ${name} was refused: ${error.detail}`, { cause: error });
      throw error;
    });
    return output instanceof JsonText ? JSON.parse(output.text) : output;
  };
  /** Runs `name` on `input`, checked as a JSON body is. */
  const call = async <N extends InterfaceName>(name: N, input: Input<N>) =>
    (await run(name, { value: input })) as Output<N>;
  /** Runs the form operation `name` on a multipart form's fields and files. */
  const upload = async <N extends InterfaceName>(name: N, form: Record<string, unknown>) =>
    (await run(name, { form })) as Output<N>;
  return Object.assign(call, { upload });
}

export type Call = ReturnType<typeof seedCaller>;

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
    await call.upload("artifacts.upload", form);
  }
  return id;
}
