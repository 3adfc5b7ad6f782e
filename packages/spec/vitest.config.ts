import { defineConfig } from "vitest/config";

export default defineConfig({
  // Sized for a small busy machine: compiling every schema of the contract with Ajv takes seconds there.
  test: { testTimeout: 60_000, hookTimeout: 120_000 },
});
