import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sized for a small busy machine (2 cores, other suites running): servers start in hooks, and a
    // PostgreSQL schema with migrations can take tens of seconds there.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
  },
});
