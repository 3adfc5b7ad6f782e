// The page's scripts, bundled by esbuild into IIFEs, minified: the console's ES modules (src/console/page.js
// and what it imports), which the page inlines; and the request checks (src/console/console-checks.js with the
// modules the generator makes from the contract, handed to the bundle by name, so never files on disk), which
// go into console.js beside the page, loaded when a console is first opened (src/console/data.js says why).
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

/** Bundles `entry` (a file of src/console/) with the generated `modules` (name -> source) it imports. */
async function bundle(entry, modules = {}) {
  const { outputFiles } = await build({
    entryPoints: [join(CONSOLE_DIR, entry)],
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

/** The page's inline script. */
export const pageScript = () => bundle("page.js");

/** The request checks of console.js, with the generated `modules` their entry imports. */
export const checksScript = (modules) => bundle("console-checks.js", modules);
