// Runs the repository's Redocly CLI (the bundle and the docs page are built with it).
import { execFileSync } from "node:child_process";
import { join, relative } from "node:path";

/** Runs `redocly <args>` in `root`; answers its stdout, or prints its output and throws when it fails. */
export function runRedocly(root, args) {
  const redocly = join(root, "node_modules", ".bin", "redocly");
  try {
    return execFileSync(redocly, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    process.stderr.write(err.stdout ?? "");
    process.stderr.write(err.stderr ?? "");
    throw new Error(
      `${relative(root, redocly)} ${args.join(" ")} failed; fix the spec (pnpm lint:spec tells what is wrong)`,
    );
  }
}
