// Whether a changed `pattern` only accepts more: strings made from the old pattern (randexp writes strings a
// regular expression matches) must all match the new one. A sample the new pattern refuses proves it
// narrower; none refused is taken as "generalized", as far as sampling can tell.
import { createRequire } from "node:module";

// randexp is loaded on the first changed pattern, not with the module (most reviews change none); it is
// CommonJS, so `require` loads it synchronously.
const require = createRequire(import.meta.url);
/** @type {typeof import("randexp") | undefined} */
let RandExpClass;
const randExp = () => (RandExpClass ??= require("randexp"));

const SAMPLES = 64;
const cache = new Map();

function compile(/** @type {string} */ pattern) {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

// Strings of every kind a value may hold: a pattern that matches all of them is taken to constrain nothing.
const PROBES = ["", "a", "Z", "0", " ", "\n", "-_./:@", "é漢", "Mixed Case 123", "x".repeat(300)];

/**
 * Whether a pattern refuses no string (`""`, `.*`, `^.*$`, `[\s\S]*`): such a pattern is no pattern, so adding a
 * real one in its place is a pattern added (the peer reads an empty pattern the same way). Probed, not proved.
 * @param {unknown} pattern
 */
export function acceptsAnything(pattern) {
  if (pattern === undefined) return true;
  if (typeof pattern !== "string") return false;
  const regex = compile(pattern);
  return regex !== undefined && PROBES.every((probe) => regex.test(probe));
}

/**
 * @param {string} before
 * @param {string} after
 * @returns {"generalized" | "narrowed" | "unknown"}
 */
export function comparePatterns(before, after) {
  const id = `${before}\u0000${after}`;
  if (cache.has(id)) return cache.get(id);
  const next = compile(after);
  /** @type {"narrowed" | "generalized" | "unknown"} */
  let verdict = "unknown";
  if (compile(before) && next) {
    try {
      const RandExp = randExp();
      const generator = new RandExp(before);
      generator.max = 8;
      // A fixed seed keeps the verdict the same from one run to the next.
      let seed = 7;
      generator.randInt = (/** @type {number} */ from, /** @type {number} */ to) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return from + (seed % (to - from + 1));
      };
      verdict = "generalized";
      for (let i = 0; i < SAMPLES; i++) {
        if (!next.test(generator.gen())) {
          verdict = "narrowed";
          break;
        }
      }
    } catch {
      verdict = "unknown";
    }
  }
  cache.set(id, verdict);
  return verdict;
}
