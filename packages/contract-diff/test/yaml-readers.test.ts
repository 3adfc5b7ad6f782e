// The loader reads values with js-yaml and lines with the `yaml` package (src/load/yaml.js). The two must read
// every contract alike: here, every YAML file the repository's contract has held (each distinct text in its
// history) and texts that reach the corners where YAML readers differ. (Where js-yaml alone refused a text, the
// loader would read it with `yaml`: slower, not wrong; the corners show that both refuse the same texts.)
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { parse as parseWithYaml } from "yaml";
import { yamlValue } from "../src/load/yaml.js";

const root = new URL("../../..", import.meta.url).pathname;

/** Every distinct YAML text under spec/ in the repository's history (at least the current files). */
function contractTexts(): string[] {
  const listing = execFileSync("git", ["rev-list", "--objects", "--all", "--", "spec"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const blobs = new Set<string>();
  for (const line of listing.split("\n")) {
    const [sha, path] = line.split(" ");
    if (sha && path && /\.ya?ml$/.test(path)) blobs.add(sha);
  }
  const input = [...blobs].map((sha) => `${sha}\n`).join("");
  const out = execFileSync("git", ["cat-file", "--batch"], { cwd: root, input, maxBuffer: 1 << 30 });
  const texts: string[] = [];
  let offset = 0;
  while (offset < out.length) {
    const end = out.indexOf(10, offset);
    const size = Number(out.subarray(offset, end).toString().split(" ")[2]);
    texts.push(out.subarray(end + 1, end + 1 + size).toString("utf8"));
    offset = end + 1 + size + 1;
  }
  return texts;
}

const CORNERS = [
  "date: 2024-01-24\ntime: 2024-01-24T10:00:00Z",
  "octal: 0o17\nold_octal: 012\nhex: 0x1F\nplus: +12\nexp: 1e3\nfloat: 1.0\nneg_zero: -0\nunderscore: 1_000",
  "inf: .inf\nnan: .NaN\nnull_word: null\ntilde: ~\nempty:",
  "yes: yes\nno: no\non: on\ntrue: True\nfalse: FALSE",
  "base: &b {a: 1, b: [1, 2]}\nuse: *b\nmerge:\n  <<: *b\n  c: 3",
  "folded: >\n  one\n  two\n\nliteral: |-\n  keep\n   indent\nquoted: 'it''s'\ndouble: \"tab\\tnew\\nline \\u00e9\"",
  "tagged: !!str 12\nflow: {x: [a, 'b', \"c\"], y: {}}\n? complex\n: value",
  "description: |\n  # not a comment\n  $ref: '#/not/a/ref'\nexample: {$ref: x}",
  "dup: 1\ndup: 2",
  "bad: [unclosed",
  "key: value\n  wrong: indent",
];

/** What `yaml` reads (its default: YAML 1.2, core schema), or "refused". */
function withYaml(text: string): unknown {
  try {
    return parseWithYaml(text, { maxAliasCount: -1 });
  } catch {
    return "refused";
  }
}

describe("the loader's two YAML readers", () => {
  it("read every YAML file the contract has held alike", () => {
    const texts = contractTexts();
    expect(texts.length).toBeGreaterThan(0);
    const differing = texts.filter((text) => {
      const fast = yamlValue(text);
      return fast !== undefined && JSON.stringify(fast.value) !== JSON.stringify(withYaml(text));
    });
    expect(differing.map((text) => text.slice(0, 200))).toEqual([]);
  });

  it.each(CORNERS)("read %j alike: the same value, or both refuse it", (text) => {
    expect(yamlValue(text)?.value ?? "refused").toStrictEqual(withYaml(text));
  });
});
