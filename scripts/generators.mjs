// Every generated file (derived from the contract in spec/, from the contract differ's rule modules, or from the
// server's table of settings), one
// generator per output, in the order scripts/generate.mjs runs them. A generator is { name, inputs, outputs, generate }:
//   - name: how `pnpm drift` names it when its files are stale;
//   - inputs: the names of earlier generators whose value it reads;
//   - outputs: the files it writes, relative to the repository;
//   - generate({ root, work, inputs }): answers (or resolves to) { files, value }, `files` being
//     { path: contents } for exactly its outputs and `value` what the generators that name it receive in
//     `inputs`. `root` is the repository, `work` a temporary folder removed after the run.
import { ruleIndexGenerator } from "../packages/contract-diff/scripts/rule-index.mjs";
import { bundleGenerator } from "./generate-bundle.mjs";
import { clientGenerator } from "./generate-client.mjs";
import { docsGenerator } from "./generate-docs.mjs";
import { serverGenerator } from "./generate-server.mjs";
import { settingsGenerator } from "./generate-settings.mjs";
import { typesGenerator } from "./generate-types.mjs";

export const generators = [
  bundleGenerator,
  typesGenerator,
  docsGenerator,
  clientGenerator,
  serverGenerator,
  settingsGenerator,
  ruleIndexGenerator,
];
