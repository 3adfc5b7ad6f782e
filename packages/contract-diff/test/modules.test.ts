// What the package's modules may reach: git from one module, YAML readers from one module, and at run time only
// the packages it lists as dependencies.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = new URL("..", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(m?js)$/.test(entry.name) ? [path] : [];
  });
}

const files = [...sources("src"), ...sources("bin")];
const text = (file: string) => readFileSync(join(root, file), "utf8");
/** The packages a module imports (statically, with import() or with a require() of createRequire), by name. */
const packagesOf = (file: string) =>
  [...text(file).matchAll(/(?:from |import\(|require\()"((?:@[^/"]+\/)?[^./"][^/"]*)/g)]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith("node:"));

describe("the modules of the differ", () => {
  it("run git from one module", () => {
    expect(files.filter((file) => text(file).includes("child_process"))).toEqual(["src/load/git.js"]);
  });

  it("read YAML in one module: values with js-yaml, lines with yaml (test/yaml-readers.test.ts: alike)", () => {
    // Loaded at run time: imported, or required (a type named in a JSDoc comment loads nothing).
    const readers = files.flatMap((file) =>
      [...text(file).matchAll(/(?:from |require\()"((?!\.)[^"]*yaml[^"]*)"/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
    expect(readers.sort()).toEqual(["src/load/yaml.js: js-yaml", "src/load/yaml.js: yaml"]);
  });

  it("depend at run time on exactly the packages they import", () => {
    const manifest = JSON.parse(text("package.json")) as { dependencies: Record<string, string> };
    const imported = [...new Set(files.flatMap(packagesOf))].sort();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(imported);
  });
});
