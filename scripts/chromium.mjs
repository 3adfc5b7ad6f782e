// Where the headless-browser checks find Chromium, and whether they must run. Debian's `chromium` is used,
// never a downloaded browser. On a machine without it the checks skip, saying so in one line; where the
// environment says they are required (WORKAPI_REQUIRE_BROWSER=1, as .ci/run sets), a missing Chromium fails.
import { existsSync } from "node:fs";

export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** The flags every check launches Chromium with. */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
];

/**
 * Whether the browser check `what` can run here: true with Chromium; false without it, after printing why
 * (unless it is required, which throws).
 */
export function browserAvailable(what) {
  if (existsSync(chromiumPath)) return true;
  const why = `no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.WORKAPI_REQUIRE_BROWSER === "1") {
    throw new Error(`${what} is required here (WORKAPI_REQUIRE_BROWSER=1), but there is ${why}`);
  }
  console.warn(`skipping ${what}: ${why}`);
  return false;
}
