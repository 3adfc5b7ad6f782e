// The page's one script: the console's ES modules (src/console/page.js and what it imports) bundled by esbuild
// into one IIFE, minified, which the page inlines (it loads nothing from anywhere). Modules the generator makes
// from the contract (the request checks) are handed to the bundle by name, so they are never files on disk.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const CONSOLE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "console");

/** An esbuild plugin that answers each name of `modules` (name -> CommonJS or ES module source) with its source. */
export function generatedModules(modules) {
  const names = Object.keys(modules);
  return {
    name: "generated-modules",
    setup(bundle) {
      if (names.length === 0) return;
      const filter = new RegExp(`^(${names.map((name) => name.replace(/[^\w]/g, "\\$&")).join("|")})$`);
      bundle.onResolve({ filter }, ({ path }) => ({ path, namespace: "generated" }));
      // Their imports (Ajv's runtime helpers) resolve from this package, which depends on them.
      bundle.onLoad({ filter: /.*/, namespace: "generated" }, ({ path }) => ({
        contents: modules[path],
        loader: "js",
        resolveDir: CONSOLE_DIR,
      }));
    },
  };
}

/** The page's script, with the generated `modules` (name -> source) the console's modules import. */
export async function pageScript(modules = {}) {
  const { outputFiles } = await build({
    entryPoints: [join(CONSOLE_DIR, "page.js")],
    absWorkingDir: CONSOLE_DIR,
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    // The modules were strict; bundled into a classic script they stay so only by saying it.
    banner: { js: '"use strict";' },
    logLevel: "silent",
    plugins: [generatedModules(modules)],
  });
  const script = outputFiles[0].text.trim();
  if (/<\/script/i.test(script)) throw new Error("the page's script would close its script element");
  return script;
}
