// Fresh npm projects outside the monorepo that install only through the throwaway registry.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { mustRun } from "./processes.mjs";
import { fail, summary, work } from "./state.mjs";

export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** A fresh npm project outside the monorepo whose only registry is the throwaway one. */
export async function npmProject(name, url, env, dependencies) {
  const dir = join(work, name);
  writeFiles(dir, {
    "package.json": JSON.stringify({ name, private: true, version: "1.0.0" }, null, 2),
    ".npmrc": `registry=${url}\n`,
  });
  const began = Date.now();
  // better-sqlite3 (the server's) is compiled here: its prebuilt binaries live outside the npm registry, and
  // building from source straight away skips a download attempt that cannot succeed.
  await mustRun("npm", ["install", "--no-audit", "--no-fund", ...dependencies], {
    cwd: dir,
    env: { ...env, npm_config_build_from_source: "true" },
    timeoutMs: 480_000,
  });
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  const foreign = Object.entries(lock.packages)
    .filter(([path, entry]) => path && entry.resolved && !entry.resolved.startsWith(url))
    .map(([path, entry]) => `${path} from ${entry.resolved}`);
  if (foreign.length > 0)
    fail(`${name} installed packages from elsewhere than ${url}:\n${foreign.join("\n")}`);
  const count = Object.keys(lock.packages).length - 1;
  summary.push(
    `installed ${dependencies.join(" ")} in a fresh project: ${count} packages, all from the throwaway registry (${((Date.now() - began) / 1000).toFixed(0)} s)`,
  );
  return dir;
}
