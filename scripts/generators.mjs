// Every generated file (derived from the contract in spec/, or from the contract differ's rule modules), one
// generator per output, in the order scripts/generate.mjs runs them. A generator is { name, inputs, outputs, generate }:
//   - name: how `pnpm drift` names it when its files are stale;
//   - inputs: the names of earlier generators whose value it reads;
//   - outputs: the files it writes, relative to the repository;
//   - generate({ root, work, inputs }): answers (or resolves to) { files, value }, `files` being
//     { path: contents } for exactly its outputs and `value` what the generators that name it receive in
//     `inputs`. `root` is the repository, `work` a temporary folder removed after the run.

import { clientGenerator } from "../packages/client/scripts/generate.mjs";
import { ruleIndexGenerator } from "../packages/contract-diff/scripts/rule-index.mjs";
import { docsGenerator } from "../packages/docs/src/render/generate.mjs";
import { serverGenerator } from "../packages/server/scripts/generate.mjs";
import { bundleGenerator } from "../packages/spec/scripts/generate.mjs";
import { typesGenerator } from "../packages/types/scripts/generate.mjs";

export const generators = [
  bundleGenerator,
  typesGenerator,
  docsGenerator,
  clientGenerator,
  serverGenerator,
  ruleIndexGenerator,
];
