// The `$ref`s of a YAML or JSON file read from its text, without parsing it: what lets the loader know which
// files a file reaches (and so whether everything a node reaches reads the same on both sides) while parsing
// only the files a change touches. Parsing the whole split spec at both revisions was most of a review's time.
//
// No YAML library offers this (a parser builds every node to find the keys), so it is a scan, and a careful
// one: every `$ref` in the text must be read cleanly, on one line, with nothing after its value but the end
// of the line, a comment or (in a flow mapping) `,` or `}`. Anything else (a value that goes on to the next
// line, an anchor or alias, a key spelled with escapes, a quoted value with escapes in it) makes the file
// opaque, and the loader parses it to read its refs. A `$ref: x` that is only text (in a description) is read
// as a ref too: that can only make more files look reached, never fewer.

/** `$ref` with optional quotes around it, `:`, and the value: double-quoted, single-quoted or plain. */
const REF = /(["']?)\$ref\1[ \t]*:[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([^\s"'&*!|>%@`#,{}[\]][^\s,{}[\]]*))/y;
/** What may follow a value in block context: spaces, then the end of the line or a comment. */
const BLOCK_END = /[ \t]*(?:#.*)?$/my;
/** What may follow a value in a flow mapping: spaces, then `,` or `}`. */
const FLOW_END = /[ \t]*[,}]/y;
/** Escapes that could spell `$` (or anything) in a double-quoted key. */
const ESCAPED_DOLLAR = /\\(?:x24|u0024|U00000024)/i;

/**
 * The `$ref` values of `text` (file part and fragment, as written), or undefined when the text cannot be
 * read cleanly and the file must be parsed to know them.
 * @param {string} text
 * @returns {string[] | undefined}
 */
export function scanRefs(text) {
  if (ESCAPED_DOLLAR.test(text)) return undefined;
  /** @type {string[]} */
  const refs = [];
  let at = text.indexOf("$ref");
  while (at !== -1) {
    const ref = readRef(text, at);
    if (ref === undefined) return undefined;
    refs.push(ref);
    at = text.indexOf("$ref", at + 4);
  }
  return refs;
}

/**
 * The value of the `$ref` whose name starts at `at` (or its opening quote just before), read on its line.
 * @param {string} text @param {number} at
 * @returns {string | undefined}
 */
function readRef(text, at) {
  const quote = text[at - 1] === '"' || text[at - 1] === "'" ? 1 : 0;
  const start = at - quote;
  REF.lastIndex = start;
  const match = REF.exec(text);
  if (!match || (quote === 1 && match[1] !== text[start])) return undefined;
  const value = match[2] ?? match[3] ?? match[4];
  if (value === undefined || value === "") return undefined;
  const end = start + match[0].length;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const before = text.slice(lineStart, start);
  const flow = /[{,][ \t]*$/.test(before);
  if (flow) {
    FLOW_END.lastIndex = end;
    return FLOW_END.test(text) ? value : undefined;
  }
  // Block context: only `- ` items and spaces before the key, nothing after the value but a comment, and no
  // line more indented right after it (a plain value could go on there).
  if (!/^[ \t]*(?:-[ \t]+)*$/.test(before)) return undefined;
  BLOCK_END.lastIndex = end;
  if (!BLOCK_END.test(text)) return undefined;
  const next = nextContentLine(text, BLOCK_END.lastIndex);
  if (next !== undefined && indentOf(next) > before.length) return undefined;
  return value;
}

/** The next line after `from` that holds more than spaces or a comment. @param {string} text @param {number} from */
function nextContentLine(text, from) {
  let at = text.indexOf("\n", from);
  while (at !== -1) {
    const end = text.indexOf("\n", at + 1);
    const line = text.slice(at + 1, end === -1 ? undefined : end);
    if (!/^[ \t]*(?:#.*)?\r?$/.test(line)) return line;
    at = end;
  }
  return undefined;
}

/** @param {string} line */
const indentOf = (line) => line.length - line.trimStart().length;
