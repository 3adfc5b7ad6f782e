import { defineConfig } from "vitest/config";

// The command-line tests start the tool several times in a scratch repository: on a small busy machine one
// test can take tens of seconds.
export default defineConfig({ test: { testTimeout: 120_000, hookTimeout: 60_000 } });
