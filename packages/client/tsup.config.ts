import { defineConfig } from "tsup";

// ESM (dist/index.js + index.d.ts) and CommonJS (dist/index.cjs + index.d.cts), and the same of the
// sandbox entry point (dist/sandbox.*); openapi-fetch stays external.
export default defineConfig({
  entry: ["src/index.ts", "src/sandbox.ts"],
  format: ["esm", "cjs"],
  dts: true,
  tsconfig: "tsconfig.lib.json",
  target: "es2022",
  platform: "neutral",
  sourcemap: true,
  clean: true,
  treeshake: true,
});
