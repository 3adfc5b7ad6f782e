// The settings generator: packages/server/README.md with its table of settings (between the markers
// `<!-- settings:start -->` and `<!-- settings:end -->`) written from the server's one table of settings,
// packages/server/src/settings.ts VARIABLES. That module imports nothing but Node, so it is compiled here on its
// own (esbuild, into the run's temporary folder) and loaded, without building the package first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export const SERVER_README = "packages/server/README.md";
const TABLE = "packages/server/src/settings.ts";
const START = "<!-- settings:start -->";
const END = "<!-- settings:end -->";

/** `readme` with the lines between the markers replaced by the table of `rows`. */
export function withSettingsTable(readme, rows) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SERVER_README} has no ${START} ... ${END} region`);
  const table = ["| flag | environment | default | meaning |", "|---|---|---|---|", ...rows].join("\n");
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

export const settingsGenerator = {
  name: "settings",
  inputs: [],
  outputs: [SERVER_README],
  generate: async ({ root, work }) => {
    const outfile = join(work, "settings.mjs");
    await build({
      entryPoints: [join(root, TABLE)],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      logLevel: "error",
    });
    const { readmeRows } = await import(pathToFileURL(outfile).href);
    const readme = readFileSync(join(root, SERVER_README), "utf8");
    return { files: { [SERVER_README]: withSettingsTable(readme, readmeRows()) } };
  },
};
