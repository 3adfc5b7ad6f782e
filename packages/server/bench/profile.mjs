// Summarizes a V8 CPU profile (`node --cpu-prof`): self time per function and per module (npm package, the
// server's own files, Node internals), as shares of the sampled time that was not idle. Used by
// `bench/run.mjs --profile`; also runs alone on any .cpuprofile file.
//
//   node bench/profile.mjs <file.cpuprofile> [top=15] [skip-ms=0]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Where a frame's code lives: an npm package, the server's own dist/, a Node internal, or a V8 pseudo-frame. */
function moduleOf(url, functionName) {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:internal";
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const inPackage = path.lastIndexOf("/node_modules/");
  if (inPackage >= 0) {
    const rest = path.slice(inPackage + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? path);
  }
  const dist = path.lastIndexOf("/packages/server/dist/");
  if (dist >= 0) return `server:${path.slice(dist + "/packages/server/dist/".length)}`;
  return path;
}

/** A frame's file, shortened to its path inside its package (or the module name when it has no file). */
function fileOf(url, module) {
  if (!url || url.startsWith("node:")) return url || module;
  const path = decodeURIComponent(url.replace(/^file:\/\//, ""));
  const inPackage = path.lastIndexOf("/node_modules/");
  if (inPackage >= 0) return path.slice(inPackage + "/node_modules/".length);
  return module;
}

/**
 * Self time (ms) per function and per module; `(idle)` is reported apart and left out of the shares. Samples
 * taken in the first `skipMs` of the profile (start-up: compiling the contract's schemas, loading modules) are
 * left out, so that a profile of a server under load shows what serving costs.
 */
export function summarizeProfile(profile, top = 15, skipMs = 0) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  // samples[i] was taken timeDeltas[i] microseconds after the previous one; charge that time to the sample.
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < skipMs * 1000) continue;
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map();
  const modules = new Map();
  let idle = 0;
  let busy = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    if (name === "(idle)") {
      idle += micros;
      continue;
    }
    busy += micros;
    const module = moduleOf(url, name);
    const key = `${name} ${fileOf(url, module)}${url ? `:${lineNumber + 1}` : ""}`;
    functions.set(key, (functions.get(key) ?? 0) + micros);
    modules.set(module, (modules.get(module) ?? 0) + micros);
  }
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: busy ? micros / busy : 0 }));
  return { busyMs: busy / 1000, idleMs: idle / 1000, functions: rank(functions), modules: rank(modules) };
}

export function formatSummary(summary) {
  const lines = [
    `CPU profile: ${summary.busyMs.toFixed(0)} ms busy, ${summary.idleMs.toFixed(0)} ms idle; self time, share of busy`,
    "  top functions:",
    ...summary.functions.map(
      (entry, i) =>
        `  ${String(i + 1).padStart(3)}. ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.name}`,
    ),
    "  top modules:",
    ...summary.modules.map(
      (entry, i) =>
        `  ${String(i + 1).padStart(3)}. ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.name}`,
    ),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [file, top, skipMs] = process.argv.slice(2);
  if (!file) throw new Error("usage: profile.mjs <file.cpuprofile> [top] [skip-ms]");
  const profile = JSON.parse(readFileSync(file, "utf8"));
  console.log(formatSummary(summarizeProfile(profile, Number(top ?? 15), Number(skipMs ?? 0))));
}
