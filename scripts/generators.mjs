// Every generated file (derived from the contract in spec/, from the contract differ's rule modules, or from the
// server's table of settings), one generator per output, in the order scripts/generate.mjs runs them. Each
// package makes what it ships: its generator lives in the package and is exported as `<package>/generator` (a
// subpath left out of what is published, see each package.json's publishConfig), so this list only names
// them. A generator is { name, inputs, outputs, generate }:
//   - name: how `pnpm drift` names it when its files are stale;
//   - inputs: the names of earlier generators whose value it reads;
//   - outputs: the files it writes, relative to the repository;
//   - generate({ root, work, inputs }): answers (or resolves to) { files, value }, `files` being
//     { path: contents } for exactly its outputs and `value` what the generators that name it receive in
//     `inputs`. `root` is the repository, `work` a temporary folder removed after the run. `files` may be a
//     function answering them (or a promise of them), called once the generators reading `value` have
//     started (work none of them waits for).
//   - prepare() (optional): called when a generator it reads runs, to load what it will need meanwhile.
import { clientGenerator } from "@workapi/client/generator";
import { ruleIndexGenerator } from "@workapi/contract-diff/generator";
import { consoleGenerator, docsGenerator } from "@workapi/docs/generator";
import { serverGenerator, settingsGenerator } from "@workapi/server/generator";
import { bundleGenerator } from "@workapi/spec/generator";
import { typesGenerator } from "@workapi/types/generator";

export const generators = [
  bundleGenerator,
  typesGenerator,
  // Before the page: its request checks, compiled on a thread, take longest after the bundle.
  consoleGenerator,
  docsGenerator,
  clientGenerator,
  serverGenerator,
  settingsGenerator,
  ruleIndexGenerator,
];
