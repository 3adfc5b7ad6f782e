import { defineConfig } from "tsup";

// ESM (dist/index.js + index.d.ts) and CommonJS (dist/index.cjs + index.d.cts); openapi-fetch stays external.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  tsconfig: "tsconfig.lib.json",
  target: "es2022",
  platform: "neutral",
  sourcemap: true,
  clean: true,
  treeshake: true,
});
