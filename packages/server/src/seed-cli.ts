// The seed as an operator runs it: a progress bar on a terminal, plain progress lines otherwise, and a
// summary of what was created.
import { Presets, SingleBar } from "cli-progress";
import { type SandboxSettings, sandboxSettingsOf } from "./config.js";
import { type SeedOptions, seed } from "./seed/index.js";
import type { DevUser, Org, Store } from "./store/types.js";

export async function runSeed(
  store: Store,
  org: Org,
  admin: DevUser,
  options: { works?: number | undefined; seed?: number | undefined; settings: SandboxSettings },
  out: NodeJS.WriteStream = process.stderr,
): Promise<void> {
  const started = Date.now();
  const bar = out.isTTY
    ? new SingleBar(
        { format: "seeding works |{bar}| {value}/{total} ({eta}s left)", stream: out },
        Presets.shades_classic,
      )
    : undefined;
  let lastLine = 0;
  const seedOptions: SeedOptions = {
    ...(options.works !== undefined ? { works: options.works } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    // The sandboxes the seed makes are made under the server's own settings (its limit of live ones).
    sandboxSettings: sandboxSettingsOf(options.settings),
    onProgress(done, total) {
      if (bar) {
        if (done === Math.min(total, 250) && !bar.isActive) bar.start(total, 0);
        bar.update(done);
      } else if (done === total || Date.now() - lastLine > 1000) {
        lastLine = Date.now();
        out.write(`seeding works: ${done}/${total}\n`);
      }
    },
  };
  const summary = await seed(store, org, admin, seedOptions);
  bar?.stop();
  if (Object.keys(summary).length === 0) {
    out.write(`${org.name} already holds this demo data set; nothing was added (--seed <n> loads another)\n`);
    return;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  out.write(
    `seeded ${org.name} in ${seconds} s: ${Object.entries(summary)
      .map(([family, n]) => `${n} ${family}`)
      .join(", ")}\n`,
  );
}
