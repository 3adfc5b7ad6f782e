// Publishing with the project's own release command (`pnpm release`) to the throwaway registry, and the two
// ways a release must fail: a second publish of the same versions, and a tarball missing a file its `exports`
// names.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mustRun, run } from "./processes.mjs";
import { fail, log, root, summary, work } from "./state.mjs";

function publishedPackages() {
  return readdirSync(join(root, "packages"))
    .map((name) => join(root, "packages", name, "package.json"))
    .map((file) => {
      try {
        return JSON.parse(readFileSync(file, "utf8"));
      } catch {
        return undefined;
      }
    })
    .filter((pkg) => pkg && pkg.private !== true);
}

export async function publish(url, env) {
  // Refuse to go on unless both package managers really resolve to the throwaway registry.
  for (const tool of ["npm", "pnpm"]) {
    const registry = (await mustRun(tool, ["config", "get", "registry"], { env })).trim().split("\n").pop();
    if (registry !== url) fail(`${tool} would publish to ${registry}, not to the throwaway ${url}; stopping`);
  }
  log("pnpm release (build, tarball checks, changeset publish) against the throwaway registry");
  // --no-git-tag: this is a rehearsal, the checkout gets no release tags.
  await mustRun("pnpm", ["release", "--no-git-tag"], { env, echo: true, timeoutMs: 600_000 });
  const packages = publishedPackages();
  for (const { name, version } of packages) {
    const info = JSON.parse(await mustRun("npm", ["view", `${name}@${version}`, "--json"], { env }));
    if (info.version !== version) fail(`${name}@${version} is not on ${url} after pnpm release`);
    if (!info.dist?.tarball?.startsWith(url)) fail(`${name}'s tarball is not served by ${url}`);
    summary.push(`published ${name}@${version} (${info.dist.tarball})`);
  }
  log(`published ${packages.length} packages`);
}

export async function failureModes(env) {
  const again = await run("pnpm", ["release", "--no-git-tag"], { env, timeoutMs: 600_000 });
  if (again.code === 0 || !/already published on .*never published twice/.test(again.output))
    fail(
      `publishing the same versions again should fail, saying so; it answered (exit ${again.code}):\n${again.output}`,
    );
  const refusal = again.output.split("\n").find((line) => line.includes("already published"));
  summary.push(`publishing again refused: ${refusal?.trim()}`);

  const fixture = join(work, "fixture-missing-export");
  mkdirSync(fixture);
  writeFileSync(
    join(fixture, "package.json"),
    JSON.stringify({
      name: "@workapi/release-check-fixture",
      version: "1.0.0",
      license: "MIT",
      type: "module",
      exports: { ".": "./index.js", "./extra": "./extra.js" },
      files: ["index.js"],
    }),
  );
  writeFileSync(join(fixture, "index.js"), "export const one = 1;\n");
  writeFileSync(join(fixture, "extra.js"), "export const two = 2;\n");
  writeFileSync(join(fixture, "README.md"), "# fixture\n");
  writeFileSync(join(fixture, "LICENSE"), "MIT\n");
  const missing = await run("node", [join(root, "scripts/release/check.mjs"), "--no-registry", fixture], {
    env,
  });
  if (
    missing.code === 0 ||
    !missing.output.includes('exports["./extra"] names ./extra.js, which the tarball lacks')
  )
    fail(
      `a tarball missing an exported file should fail the check; it answered (exit ${missing.code}):\n${missing.output}`,
    );
  const line = missing.output.split("\n").find((l) => l.includes("tarball lacks"));
  summary.push(`missing exported file refused: ${line?.trim()}`);
  log("both failure modes fail with their messages");
}
