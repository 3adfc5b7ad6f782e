// Two sandboxes of the operator's organization, made through sandboxes.create like any other record: the ids
// the docs' examples of the sandbox operations name (the first is read, listed and its journal shown; the
// second is the one the delete example deletes). They live 7 days, the longest a sandbox may.
import type { Builder } from "./context.js";

export async function makeSandboxes({ call, count }: Builder): Promise<void> {
  for (const name of ["tags suite", "works suite"]) {
    await call("sandboxes.create", { name, ttl_seconds: 604_800 });
    count("sandboxes");
  }
}
