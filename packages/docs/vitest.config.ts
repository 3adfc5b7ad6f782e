import { defineConfig } from "vitest/config";

export default defineConfig({
  // Sized for a small busy machine: launching Chromium in a hook can take tens of seconds there.
  test: { testTimeout: 60_000, hookTimeout: 180_000 },
});
