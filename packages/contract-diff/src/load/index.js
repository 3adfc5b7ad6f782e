// Reads a contract from wherever a review finds it: a JSON or YAML file, a split spec (an entry file whose
// `$ref`s name other files), the same at a git revision, or an http(s) URL. This module alone decides which of
// these an argument names (sourceOf: the CLI and the gate ask it, once per argument) and reads it; git itself
// runs in ./git.js. The result is one document in which every `$ref` is local: each file reached lives once
// under `x-contract-files`, so a shared schema has one pointer whichever operation reaches it, and
// `origin(pointer)` gives the file and line it came from.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, posix, relative, resolve } from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { escapeSegment } from "../engine/schema-view.js";
import { commitOf, revisionReader } from "./git.js";
import { lineIndex } from "./lines.js";

/** A source that cannot be read or is no OpenAPI 3.0/3.1 document (exit code 2). */
export class InputError extends Error {}

export const FILES = "x-contract-files";

/**
 * @typedef {import("../index.js").LoadedSpec & { files: string[], version: string }} Loaded
 * @typedef {import("../index.js").Source} Source
 * @typedef {{ read: (location: string) => Promise<string> | string, resolve: (from: string, ref: string) => string,
 *   display: (location: string) => string }} Reader
 */

const isUrl = (value) => /^https?:\/\//i.test(value);

/**
 * What `argument` names, decided once: an http(s) URL, a file (relative to `cwd`), or a git revision of the
 * repository at `root` (with the commit it names).
 * @param {string} argument @param {{ cwd?: string, root?: string }} [where]
 * @returns {Source}
 */
export function sourceOf(argument, where = {}) {
  const cwd = where.cwd ?? process.cwd();
  const root = where.root ?? cwd;
  if (typeof argument !== "string" || argument === "") throw new InputError("no source given");
  if (isUrl(argument)) return { kind: "url", name: argument };
  const path = resolve(cwd, argument);
  if (existsSync(path) && statSync(path).isFile()) return { kind: "file", name: argument, path };
  const sha = commitOf(root, argument);
  if (sha) return { kind: "revision", name: argument, sha };
  throw new InputError(`${argument} is no file, no http(s) URL and no git revision of ${root}`);
}

/** The first of `candidates` that names a commit of the repository at `root`, as a source; undefined if none. */
export function firstRevision(root, candidates) {
  for (const name of candidates) {
    const sha = commitOf(root, name);
    if (sha) return /** @type {Source} */ ({ kind: "revision", name, sha });
  }
  return undefined;
}

/**
 * @param {string | Source} source a file path, an http(s) URL or a git revision, or what sourceOf made of one
 * @param {{ cwd?: string, root?: string, spec?: string, label?: string }} [options]
 *   `root`: the repository (paths in findings are relative to it); `spec`: the entry file inside the
 *   repository that a revision is read at (default spec/openapi.yaml)
 * @returns {Promise<Loaded>}
 */
export async function loadSpec(source, options = {}) {
  const root = options.root ?? options.cwd ?? process.cwd();
  const spec = options.spec ?? "spec/openapi.yaml";
  const given = typeof source === "string" ? sourceOf(source, options) : source;
  if (given.kind === "url") return load(given.name, urlReader(), options.label ?? given.name);
  if (given.kind === "file")
    return load(given.path, fileReader(root), options.label ?? displayPath(root, given.path));
  const short = given.sha.slice(0, 7);
  const label = /^[0-9a-f]{40,64}$/.test(given.name) ? short : `${given.name} (${short})`;
  const entry = posix.normalize(spec.split("\\").join("/"));
  return load(entry, revisionReader(root, given.name, given.sha), options.label ?? label);
}

function displayPath(root, path) {
  const inside = relative(root, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside.split("\\").join("/") : path;
}

/** @returns {Reader} */
function fileReader(root) {
  return {
    read: (location) => {
      try {
        return readFileSync(location, "utf8");
      } catch (err) {
        throw new InputError(`cannot read ${location}: ${err.code ?? err.message}`);
      }
    },
    resolve: (from, ref) => (isUrl(ref) ? ref : normalize(join(dirname(from), decodeURI(ref)))),
    display: (location) => (isUrl(location) ? location : displayPath(root, location)),
  };
}

/** @returns {Reader} */
function urlReader() {
  return {
    read: async (location) => {
      let response;
      try {
        response = await fetch(location, { signal: AbortSignal.timeout(30_000) });
      } catch (err) {
        throw new InputError(`cannot fetch ${location}: ${err.cause?.message ?? err.message}`);
      }
      if (!response.ok) throw new InputError(`cannot fetch ${location}: HTTP ${response.status}`);
      return response.text();
    },
    resolve: (from, ref) => new URL(ref, from).href,
    display: (location) => location,
  };
}

/**
 * @typedef {{ value: any, text: string, document?: import("yaml").Document, counter?: LineCounter,
 *   lines?: Map<string, number> }} Parsed
 */

/**
 * Parses one file's text: JSON with JSON.parse, anything else with the `yaml` parser, whose document keeps the
 * source positions that a finding's line is read from (`linesOf`), so no file is parsed twice.
 * @returns {Parsed}
 */
function parse(text, where) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { value: JSON.parse(text), text };
    } catch {
      // not JSON after all (a YAML flow mapping, say): read as YAML below
    }
  }
  const { document, counter } = yamlDocument(text);
  const error = document.errors[0];
  if (error) {
    const line = error.linePos ? `:${error.linePos[0].line}` : "";
    throw new InputError(`${where}${line} is neither JSON nor YAML: ${error.message.split("\n")[0]}`);
  }
  return { value: document.toJS({ maxAliasCount: -1 }), text, document, counter };
}

function yamlDocument(text) {
  const counter = new LineCounter();
  return { document: parseDocument(text, { lineCounter: counter, prettyErrors: false }), counter };
}

/** The line index of a parsed file, built on first use (a JSON file's text is read for positions then). */
function linesOf(file) {
  if (!file.lines) {
    const { document, counter } = file.document ? file : yamlDocument(file.text);
    file.lines = lineIndex(document.contents, counter);
    file.document = undefined;
  }
  return file.lines;
}

function checkVersion(value, where) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InputError(`${where} is not an OpenAPI document (its top level is not a mapping)`);
  }
  if (value.swagger !== undefined) {
    throw new InputError(
      `${where} is Swagger ${value.swagger}: only OpenAPI 3.0 and 3.1 are read. Convert it to OpenAPI 3 first.`,
    );
  }
  const version = typeof value.openapi === "string" ? value.openapi : undefined;
  if (!version) throw new InputError(`${where} is not an OpenAPI document (no \`openapi\` version field)`);
  if (!/^3\.[01]\.\d+/.test(version))
    throw new InputError(`${where} is OpenAPI ${version}: only 3.0 and 3.1 are read`);
  return version;
}

/**
 * @param {string} entry @param {Reader} reader @param {string} label
 * @returns {Promise<Loaded>}
 */
async function load(entry, reader, label) {
  /** @type {Map<string, Parsed & { key: string, display: string }>} */
  const files = new Map();
  const entryText = await reader.read(entry);
  const first = parse(entryText, reader.display(entry));
  const version = checkVersion(first.value, reader.display(entry));
  files.set(entry, { key: "", display: reader.display(entry), ...first });
  const pending = [entry];
  // A file's key is its path from the entry's folder, whatever the source: the same file read from a
  // revision, the working tree or a URL has the same pointer, so $refs compare equal across sources.
  const folder = reader.resolve(entry, ".");
  const prefix = folder === "." ? "" : /[/\\]$/.test(folder) ? folder : `${folder}/`;
  const keyOf = (location) =>
    (location.startsWith(prefix) ? location.slice(prefix.length) : location).split("\\").join("/");
  while (pending.length > 0) {
    const location = pending.pop();
    const file = files.get(location);
    const refs = [];
    collectRefs(file.value, refs);
    for (const holder of refs) {
      const ref = holder.$ref;
      const hash = ref.indexOf("#");
      const target = hash === -1 ? ref : ref.slice(0, hash);
      const fragment = hash === -1 ? "" : ref.slice(hash + 1);
      if (target === "") {
        // Local to this file: inside an external file, `#/a` means that file's own root.
        if (location !== entry) holder.$ref = `#/${FILES}/${escapeSegment(file.key)}${fragment}`;
        continue;
      }
      const next = reader.resolve(location, target);
      if (!files.has(next)) {
        let text;
        try {
          text = await reader.read(next);
        } catch (err) {
          throw new InputError(
            `${reader.display(location)}: $ref ${ref} names ${reader.display(next)}, which cannot be read (${err.message})`,
          );
        }
        const parsed = parse(text, reader.display(next));
        files.set(next, { key: keyOf(next), display: reader.display(next), ...parsed });
        pending.push(next);
      }
      const key = files.get(next).key;
      holder.$ref = next === entry ? `#${fragment}` : `#/${FILES}/${escapeSegment(key)}${fragment}`;
    }
  }
  const document = first.value;
  const external = [...files.entries()].filter(([location]) => location !== entry);
  if (external.length > 0) {
    document[FILES] = Object.fromEntries(external.map(([, file]) => [file.key, file.value]));
  }
  const byKey = new Map([...files.values()].map((file) => [file.key, file]));
  const entryName = reader.display(entry);
  return {
    document,
    label,
    version,
    files: [...files.keys()].map((location) => reader.display(location)),
    origin: (pointer) => originOf(pointer, byKey, entryName),
  };
}

/** Every object holding a string `$ref`, in document order. */
function collectRefs(node, out, seen = new Set()) {
  if (node === null || typeof node !== "object" || seen.has(node)) return out;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out, seen);
    return out;
  }
  if (typeof node.$ref === "string") out.push(node);
  for (const [key, value] of Object.entries(node)) if (key !== "$ref") collectRefs(value, out, seen);
  return out;
}

/** The file and line of a pointer in the loaded document: the deepest node of it that a file records. */
function originOf(pointer, byKey, entryName) {
  if (typeof pointer !== "string" || !pointer.startsWith("#")) return undefined;
  let segments = pointer.slice(1).split("/").slice(1);
  let file = byKey.get("");
  let name = entryName;
  if (segments[0] === FILES && segments.length > 1) {
    const key = segments[1].replaceAll("~1", "/").replaceAll("~0", "~");
    file = byKey.get(key);
    name = file?.display ?? key;
    segments = segments.slice(2);
  }
  if (!file) return undefined;
  for (let n = segments.length; n >= 0; n--) {
    const inner = n === 0 ? "" : `/${segments.slice(0, n).join("/")}`;
    const line = linesOf(file).get(inner);
    if (line !== undefined)
      return { file: name, line, pointer: `#${segments.length ? `/${segments.join("/")}` : ""}` };
  }
  return { file: name, line: 1, pointer: `#${segments.length ? `/${segments.join("/")}` : ""}` };
}
