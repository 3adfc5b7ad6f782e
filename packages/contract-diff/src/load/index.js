// Reads a contract from wherever a review finds it: a JSON or YAML file, a split spec (an entry file whose
// `$ref`s name other files), the same at a git revision, or an http(s) URL. This module alone decides which of
// these an argument names (sourceOf: the CLI and the gate ask it, once per argument) and reads it; git itself
// runs in ./git.js. The result is one document in which every `$ref` is local: each file reached lives once
// under `x-contract-files`, so a shared schema has one pointer whichever operation reaches it, and
// `origin(pointer)` gives the file and line it came from.

import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, posix, relative, resolve } from "node:path";
import { escapeSegment } from "../engine/schema-view.js";
import { commitOf, revisionReader } from "./git.js";
import { lineIndex } from "./lines.js";
import { scanRefs } from "./scan.js";
import { yaml, yamlValue } from "./yaml.js";

/** A source that cannot be read or is no OpenAPI 3.0/3.1 document (exit code 2). */
export class InputError extends Error {}

export const FILES = "x-contract-files";

/**
 * Each text's parsed value by its hash, for the life of the process: a review reads most files at both
 * revisions, unchanged, and a copy of a value is several times cheaper than a parse. Values are copied in
 * and out, since a load rewrites the `$ref`s of the value it is given.
 * @type {Map<string, import("../engine/json.js").Json>}
 */
const parsedValues = new Map();

/**
 * @typedef {import("../index.js").LoadedSpec & { files: string[], version: string }} Loaded
 * @typedef {import("../index.js").Source} Source
 * @typedef {{ read: (location: string) => Promise<string> | string, resolve: (from: string, ref: string) => string,
 *   display: (location: string) => string }} Reader
 */

const isUrl = (/** @type {import("../engine/json.js").Json} */ value) => /^https?:\/\//i.test(value);

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
export function firstRevision(/** @type {string} */ root, /** @type {string[]} */ candidates) {
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
export async function loadContract(source, options = {}) {
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

function displayPath(/** @type {string} */ root, /** @type {string} */ path) {
  const inside = relative(root, path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside.split("\\").join("/") : path;
}

/** @returns {Reader} */
function fileReader(/** @type {string} */ root) {
  return {
    read: (location) => {
      try {
        return readFileSync(location, "utf8");
      } catch (err) {
        const error = /** @type {NodeJS.ErrnoException} */ (err);
        throw new InputError(`cannot read ${location}: ${error.code ?? error.message}`);
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
        const error = /** @type {Error & { cause?: Error }} */ (err);
        throw new InputError(`cannot fetch ${location}: ${error.cause?.message ?? error.message}`);
      }
      if (!response.ok) throw new InputError(`cannot fetch ${location}: HTTP ${response.status}`);
      return response.text();
    },
    resolve: (from, ref) => new URL(ref, from).href,
    display: (location) => location,
  };
}

/**
 * @typedef {{ value: import("../engine/json.js").Json, document?: import("yaml").Document, counter?: import("yaml").LineCounter }} Parsed
 */

/**
 * Parses one file's text: JSON with JSON.parse, YAML with js-yaml (./yaml.js: values only, fast). A text
 * js-yaml refuses is read with the `yaml` parser, whose document also keeps the source positions that a
 * finding's line is read from (`linesOf`), so that file is not parsed again for its lines.
 * @param {string} text @param {string} where
 * @returns {Parsed}
 */
function parse(text, where) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { value: JSON.parse(text) };
    } catch {
      // not JSON after all (a YAML flow mapping, say): read as YAML below
    }
  }
  const fast = yamlValue(text);
  if (fast) return fast;
  const { document, counter } = yamlDocument(text);
  const error = document.errors[0];
  if (error) {
    const line = error.linePos ? `:${error.linePos[0].line}` : "";
    throw new InputError(`${where}${line} is neither JSON nor YAML: ${error.message.split("\n")[0]}`);
  }
  return { value: document.toJS({ maxAliasCount: -1 }), document, counter };
}

/** @param {string} text */
function yamlDocument(text) {
  const { LineCounter, parseDocument } = yaml();
  const counter = new LineCounter();
  return { document: parseDocument(text, { lineCounter: counter, prettyErrors: false }), counter };
}

/**
 * A file's parsed text, from `parsedValues` when a text with its hash was parsed before (a copy: the caller
 * rewrites its `$ref`s).
 * @param {SpecFile} file @returns {Parsed}
 */
function parseOnce(file) {
  const known = parsedValues.get(file.hash);
  if (known !== undefined) return { value: structuredClone(known) };
  const parsed = parse(file.text, file.display);
  // A bound, for a process that reviews many contracts (a server using the API): a review's own files are a
  // few hundred.
  if (parsedValues.size >= 4096) parsedValues.clear();
  parsedValues.set(file.hash, structuredClone(parsed.value));
  return parsed;
}

/**
 * The line index of a file, built on first use: from the document its value was parsed from, else (a JSON
 * file, or one never parsed) from its text.
 * @param {SpecFile} file
 */
function linesOf(file) {
  if (!file.lines) {
    const parsed =
      file.document && file.counter
        ? { document: file.document, counter: file.counter }
        : yamlDocument(file.text);
    file.lines = lineIndex(parsed.document.contents, parsed.counter);
    file.document = undefined;
    file.counter = undefined;
  }
  return file.lines;
}

function checkVersion(/** @type {import("../engine/json.js").Json} */ value, /** @type {string} */ where) {
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
 * One file of a split spec. Its text is read (and hashed) when the loader finds it; its value is parsed on
 * first use, when the differ reaches it: a review parses only what its change touches. `refs` are the `$ref`s
 * its text holds (read by ./scan.js, or from its parsed value when the text cannot be read cleanly);
 * `reaches`, the files they name.
 * @typedef {{ location: string, key: string, display: string, text: string, hash: string, refs: string[],
 *   reaches: Set<string>, value?: import("../engine/json.js").Json, parsed: boolean, local?: boolean, document?: import("yaml").Document,
 *   counter?: import("yaml").LineCounter, lines?: Map<string, number> }} SpecFile
 */

/**
 * @param {string} entry @param {Reader} reader @param {string} label
 * @returns {Promise<Loaded>}
 */
async function load(entry, reader, label) {
  /** @type {Map<string, SpecFile>} */
  const files = new Map();
  // A file's key is its path from the entry's folder, whatever the source: the same file read from a
  // revision, the working tree or a URL has the same pointer, so $refs compare equal across sources.
  const folder = reader.resolve(entry, ".");
  const prefix = folder === "." ? "" : /[/\\]$/.test(folder) ? folder : `${folder}/`;
  /** @param {string} location */
  const keyOf = (location) =>
    (location.startsWith(prefix) ? location.slice(prefix.length) : location).split("\\").join("/");
  /** @param {string} location @param {string} text @returns {SpecFile} */
  const fileOf = (location, text) => ({
    location,
    key: location === entry ? "" : keyOf(location),
    display: reader.display(location),
    text,
    hash: createHash("sha1").update(text).digest("base64"),
    refs: [],
    reaches: new Set(),
    parsed: false,
  });
  /** Parses a file now: its value, and its refs read from that value. @param {SpecFile} file */
  const parseFile = (file) => {
    if (file.parsed) return;
    Object.assign(file, parseOnce(file), { parsed: true });
    file.refs = collectRefs(file.value, []).map(
      (/** @type {import("../engine/json.js").Json} */ holder) => holder.$ref,
    );
  };

  const first = fileOf(entry, await reader.read(entry));
  parseFile(first);
  const version = checkVersion(first.value, first.display);
  files.set(entry, first);
  await readReachable(first, files, reader, fileOf, parseFile);

  /** The value of a file with its refs made local to the one document. @param {SpecFile} file */
  const localValue = (file) => {
    if (!file.local) {
      parseFile(file);
      for (const holder of collectRefs(file.value, [])) holder.$ref = localRef(file, holder.$ref);
      file.local = true;
    }
    return file.value;
  };
  /** @param {SpecFile} file @param {string} ref */
  const localRef = (file, ref) => {
    const target = fileTarget(ref);
    const fragment = ref.slice(target.length + 1);
    // Local to this file: inside an external file, `#/a` means that file's own root.
    if (target === "")
      return file.location === entry ? ref : `#/${FILES}/${escapeSegment(file.key)}${fragment}`;
    const next = reader.resolve(file.location, target);
    const found = files.get(next);
    if (!found)
      throw new InputError(
        `${file.display}: $ref ${ref} names ${reader.display(next)}, which cannot be read`,
      );
    return next === entry ? `#${fragment}` : `#/${FILES}/${escapeSegment(found.key)}${fragment}`;
  };

  const document = localValue(first);
  const external = [...files.values()].filter((file) => file !== first);
  if (external.length > 0) document[FILES] = lazyValues(external, localValue);
  const byKey = new Map([...files.values()].map((file) => [file.key, file]));
  return {
    document,
    label,
    version,
    files: [...files.keys()].map((location) => reader.display(location)),
    origin: (pointer) => originOf(pointer, byKey, first.display),
    sources: sourcesOf(byKey, files, (key) => {
      if (key !== "" && byKey.has(key)) localValue(/** @type {SpecFile} */ (byKey.get(key)));
    }),
  };
}

/**
 * Reads every file `first` reaches through `$ref`s into `files`: each file's refs scanned from its text (or
 * parsed, when the text cannot be read cleanly), and each file they name read once.
 * @param {SpecFile} first @param {Map<string, SpecFile>} files @param {Reader} reader
 * @param {(location: string, text: string) => SpecFile} fileOf @param {(file: SpecFile) => void} parseFile
 */
async function readReachable(first, files, reader, fileOf, parseFile) {
  const pending = [first];
  while (pending.length > 0) {
    const file = /** @type {SpecFile} */ (pending.pop());
    if (!file.parsed) {
      const scanned = scanRefs(file.text);
      if (scanned) file.refs = scanned;
      else parseFile(file);
    }
    for (const ref of file.refs) {
      const target = fileTarget(ref);
      if (target === "") continue;
      const next = reader.resolve(file.location, target);
      if (!files.has(next)) {
        let text;
        try {
          text = await reader.read(next);
        } catch (err) {
          // A ref read from the text alone may be text in a description: the parsed file decides.
          if (!file.parsed) parseFile(file);
          if (!file.refs.includes(ref)) continue;
          throw new InputError(
            `${file.display}: $ref ${ref} names ${reader.display(next)}, which cannot be read (${messageOf(err)})`,
          );
        }
        const found = fileOf(next, text);
        files.set(next, found);
        pending.push(found);
      }
      file.reaches.add(next);
    }
  }
}

/** The file part of a `$ref` (before `#`). @param {string} ref */
const fileTarget = (ref) => {
  const hash = ref.indexOf("#");
  return hash === -1 ? ref : ref.slice(0, hash);
};

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

/**
 * The external files' values under their keys, each parsed when first read (a getter that then stays a value).
 * @param {SpecFile[]} external @param {(file: SpecFile) => import("../engine/json.js").Json} localValue
 * @returns {Record<string, import("../engine/json.js").Json>}
 */
function lazyValues(external, localValue) {
  /** @type {Record<string, import("../engine/json.js").Json>} */
  const values = {};
  for (const file of external) {
    Object.defineProperty(values, file.key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = localValue(file);
        Object.defineProperty(values, file.key, {
          value,
          enumerable: true,
          configurable: true,
          writable: true,
        });
        return value;
      },
    });
  }
  return values;
}

/**
 * What the differ may know of the files without parsing them (index.d.ts: SpecSources).
 * @param {Map<string, SpecFile>} byKey @param {Map<string, SpecFile>} byLocation
 * @param {(key: string) => void} parseKey
 * @returns {import("../index.js").SpecSources}
 */
function sourcesOf(byKey, byLocation, parseKey) {
  /** @type {Map<string, string>} */
  const tokens = new Map();
  /** Every file `file` reaches, itself included, as `key=hash` in key order. @param {SpecFile} file */
  const tokenOf = (file) => {
    let token = tokens.get(file.key);
    if (token === undefined) {
      /** @type {Set<SpecFile>} */
      const seen = new Set([file]);
      const stack = [file];
      while (stack.length > 0) {
        for (const location of /** @type {SpecFile} */ (stack.pop()).reaches) {
          const next = byLocation.get(location);
          if (next && !seen.has(next)) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
      token = [...seen]
        .map((f) => `${f.key}=${f.hash}`)
        .sort()
        .join("\n");
      tokens.set(file.key, token);
    }
    return token;
  };
  return {
    hashes: new Map([...byKey.values()].map((file) => [file.key, file.hash])),
    reach(pointer) {
      const file = byKey.get(fileKeyOf(pointer));
      return file ? tokenOf(file) : undefined;
    },
    parse: parseKey,
  };
}

/** The key of the file a `#/...` pointer of the loaded document lies in ("" for the entry). @param {string} pointer */
function fileKeyOf(pointer) {
  const segments = pointer.slice(1).split("/");
  if (segments[1] !== FILES || segments.length < 3) return "";
  return /** @type {string} */ (segments[2]).replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Every object holding a string `$ref`, in document order. */
function collectRefs(
  /** @type {import("../engine/json.js").Json} */ node,
  /** @type {{ $ref: string }[]} */ out,
  seen = new Set(),
) {
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
function originOf(
  /** @type {string} */ pointer,
  /** @type {Map<string, SpecFile>} */ byKey,
  /** @type {string} */ entryName,
) {
  if (typeof pointer !== "string" || !pointer.startsWith("#")) return undefined;
  let segments = pointer.slice(1).split("/").slice(1);
  let file = byKey.get("");
  let name = entryName;
  if (segments[0] === FILES && segments.length > 1) {
    const key = (segments[1] ?? "").replaceAll("~1", "/").replaceAll("~0", "~");
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
