// The process `pnpm dev` lints and reviews the contract in (./checks.mjs), apart from the one that regenerates
// and serves the page: Redocly's lint of this contract takes a second or two of CPU, which in the dev process
// held up the next save (its event loop busy) and, on a two-core machine, took a core from the page's reload.
// Here it runs at a lower priority (scripts/dev.mjs starts it niced), keeps Redocly and the base contract
// loaded, and answers each message { id, root, base } with { id, lint, review } (`lint` an array of problems
// or { error }, `review` the findings or { error }).
import { baseContract, lastBundle, lintProblems, review } from "./checks.mjs";

let base;
process.on("message", async ({ id, root, base: revision }) => {
  base ??= baseContract(root, revision);
  base.catch(() => {});
  const [lint, reviewed] = await Promise.allSettled([
    lintProblems(root, lastBundle(root)),
    review(root, base),
  ]);
  // The dev process may have gone meanwhile (Ctrl-C): then there is no one to answer.
  if (!process.connected) return;
  process.send(
    {
      id,
      lint: lint.status === "fulfilled" ? lint.value : { error: String(lint.reason?.message ?? lint.reason) },
      review:
        reviewed.status === "fulfilled"
          ? reviewed.value.findings
          : { error: String(reviewed.reason?.message ?? reviewed.reason) },
    },
    undefined,
    undefined,
    // A send that fails (the dev process gone meanwhile) needs nothing done.
    () => {},
  );
});
process.on("disconnect", () => process.exit(0));
