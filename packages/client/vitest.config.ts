import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The tests import the package by its name, as users do; it resolves to the sources.
    alias: [
      { find: /^@workapi\/client$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
      {
        find: /^@workapi\/client\/sandbox$/,
        replacement: fileURLToPath(new URL("./src/sandbox.ts", import.meta.url)),
      },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Sized for a small busy machine (2 cores, other suites running): starting a reference server or
    // Chromium in a hook can take tens of seconds there.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
