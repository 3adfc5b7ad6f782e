// The `yaml` package, loaded on first use rather than with the module: a review whose files are all JSON, or
// whose findings land in no YAML file, does not pay for loading it. It is CommonJS under Node, so `require`
// loads it synchronously, which lets a finding's line be read without making every caller async.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
/** @type {typeof import("yaml") | undefined} */
let loaded;

/** The `yaml` package. @returns {typeof import("yaml")} */
export const yaml = () => (loaded ??= require("yaml"));
