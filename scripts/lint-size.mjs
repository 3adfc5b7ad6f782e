// The house's size limits on hand-written source: no file over 500 lines and no function over 80 (a function
// counts from its first line to its closing brace, the functions nested in it included, so a long factory
// closure counts whole). Sources are the packages' src/, bin/, scripts/ and bench/ folders and the repo's scripts/;
// generated files (their first line says so) and tests are not counted. Uses the TypeScript parser the repo
// already has, so JavaScript and TypeScript are measured alike.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 80;

const tracked = execFileSync(
  "git",
  [
    "ls-files",
    "scripts/*",
    "packages/*/src/*",
    "packages/*/bin/*",
    "packages/*/scripts/*",
    "packages/*/bench/*",
  ],
  { encoding: "utf8" },
)
  .split("\n")
  .filter((file) => /\.(c|m)?[jt]s$/.test(file) && !file.endsWith(".d.ts"));

const problems = [];
for (const file of tracked) {
  const text = readFileSync(file, "utf8");
  if (/generated/i.test(text.split("\n", 1)[0] ?? "")) continue;
  const lines = text.split("\n").length;
  if (lines > MAX_FILE_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = lineOf(node.getStart(source));
      const length = lineOf(node.end) - first + 1;
      if (length > MAX_FUNCTION_LINES) {
        const name = node.name ? node.name.getText(source) : "(anonymous)";
        problems.push(
          `${file}:${first}: function ${name} is ${length} lines (at most ${MAX_FUNCTION_LINES})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length > 0) {
  console.error(`lint:size: ${problems.length} over the limits:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `lint:size: ${tracked.length} source files, none over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`,
);
