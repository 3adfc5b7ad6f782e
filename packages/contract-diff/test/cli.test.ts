// The command line end to end, in a scratch git repository shaped like this one: the real split spec under
// spec/, a workspace whose fixed group releases it, and a major changeset already pending on the base.
import { cpSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Scratch, scratchRepo, TAG } from "./support/scratch.js";

let s: Scratch;
let repo: string;
const write = (path: string, text: string) => s.write(path, text);
const read = (path: string) => s.read(path);
const commit = (message: string) => s.commit(message);
const changeset = (name: string, bump: string) => s.changeset(name, bump);
const cli = (...args: string[]) => s.cli(...args);
const cliAsync = (...args: string[]) => s.cliAsync(...args);
const removeTagDescription = () => s.removeTagDescription();
const addTagColour = () => s.addTagColour();

beforeEach(() => {
  s = scratchRepo();
  repo = s.repo;
});
afterEach(() => s.remove());

describe("the gate", () => {
  it("fails a break even with a major pending from an earlier change, naming the rule, file, line and operations", () => {
    removeTagDescription();
    commit("drop Tag.description");
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("Gate: FAILED");
    expect(result.stdout).toContain("response-optional-property-removed");
    expect(result.stdout).toMatch(/spec\/components\/schemas\/Tag\.yaml:\d+/);
    expect(result.stdout).toContain("POST /tags.create");
    expect(result.stdout).toContain(".changeset/earlier-major.md is pending from earlier changes");
  });

  it("passes once the change adds a major changeset, and names it", () => {
    removeTagDescription();
    changeset("drop-tag-description", "major");
    commit("drop Tag.description, with its changeset");
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("acknowledged by .changeset/drop-tag-description.md");
  });

  it("counts a changeset not committed yet as the change's own", () => {
    removeTagDescription();
    changeset("drop-tag-description", "major");
    const result = cli("HEAD", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("drop-tag-description.md");
  });

  it("passes an additive change with no changeset", () => {
    addTagColour();
    commit("add Tag.colour");
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Gate: passed, no error-level change.");
    expect(result.stdout).toContain("response-property-added");
  });

  it("accepts a break listed in the accepted-breaks file, and reports an entry that matches nothing", () => {
    removeTagDescription();
    commit("drop Tag.description");
    const json = JSON.parse(cli("HEAD~1", "--format", "json").stdout);
    const [finding] = json.findings;
    write(
      ".contract-diff/accepted-breaks.yaml",
      `- rule: ${finding.rule}\n  location: "${finding.location}"\n  reason: The service never sent it.\n` +
        `- rule: operation-removed\n  location: GET /gone\n  reason: Long gone.\n`,
    );
    const result = cli("HEAD~1", "--gate", "--format", "text");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("all listed in the accepted-breaks file");
    expect(result.stdout).toContain("Accepted break no longer found: operation-removed at GET /gone");
  });
});

describe("inputs and exit codes", () => {
  it("refuses Swagger 2.0, a file that is no OpenAPI, a missing source and an unknown option with exit 2", () => {
    write("swagger.json", JSON.stringify({ swagger: "2.0", info: { title: "t", version: "1" }, paths: {} }));
    write("notes.yaml", "just: some\nyaml: here\n");
    write("broken.yaml", "a: [1, 2\n");
    for (const [args, message] of [
      [["swagger.json", "spec/openapi.yaml"], /Swagger 2\.0/],
      [["notes.yaml", "spec/openapi.yaml"], /not an OpenAPI document/],
      [["broken.yaml", "spec/openapi.yaml"], /neither JSON nor YAML/],
      [["no-such-thing", "spec/openapi.yaml"], /no file, no http\(s\) URL and no git revision/],
      [["HEAD", "--colour"], /Unknown option/],
    ] as const) {
      const result = cli(...args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    }
  });

  it("reads a single JSON file and a single YAML file, and an external $ref that names a missing file exits 2", () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: { "/a": { get: { responses: { 200: { description: "ok" } } } } },
    };
    write("a.json", JSON.stringify(doc));
    write("b.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n");
    const result = cli("a.json", "b.yaml", "--format", "json");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).findings.map((f: { rule: string }) => f.rule)).toEqual([
      "operation-removed",
    ]);
    write(
      "c.yaml",
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    $ref: ./missing.yaml\n",
    );
    const missing = cli("c.yaml", "b.yaml");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("missing.yaml");
  });

  it("reads a split spec served over http", async () => {
    cpSync(join(repo, "spec"), join(repo, "served", "spec"), { recursive: true });
    const server: Server = createServer((request, response) => {
      try {
        const path = join(
          repo,
          "served",
          decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname),
        );
        response.writeHead(200, {
          "content-type": extname(path) === ".json" ? "application/json" : "text/yaml",
        });
        response.end(readFileSync(path));
      } catch {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    try {
      const { port } = server.address() as AddressInfo;
      removeTagDescription();
      const result = await cliAsync(
        `http://127.0.0.1:${port}/spec/openapi.yaml`,
        "spec/openapi.yaml",
        "--format",
        "json",
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual([
        "response-optional-property-removed",
      ]);
    } finally {
      server.close();
    }
  });
});

describe("outputs", () => {
  beforeEach(() => {
    removeTagDescription();
    commit("drop Tag.description");
  });

  it("writes Markdown, JSON, JUnit, GitHub annotations and SARIF for the same findings", () => {
    const markdown = cli("HEAD~1", "--gate", "--format", "markdown").stdout;
    expect(markdown).toContain("## Contract review");
    expect(markdown).toContain("`response-optional-property-removed`");

    const json = JSON.parse(cli("HEAD~1", "--gate", "--format", "json").stdout);
    expect(json.gate.pass).toBe(false);
    expect(json.findings[0].source.file).toBe(TAG);
    expect(json.findings[0].operations.length).toBe(3);

    const junit = cli("HEAD~1", "--gate", "--format", "junit").stdout;
    expect(junit).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    expect(junit).toContain('failures="1"');
    expect(junit).toContain("<failure ");

    const annotations = cli("HEAD~1", "--gate", "--format", "github").stdout;
    expect(annotations).toMatch(
      /^::error file=spec\/components\/schemas\/Tag\.yaml,line=\d+,title=response-optional-property-removed \(error\)::/m,
    );

    const sarif = JSON.parse(cli("HEAD~1", "--gate", "--format", "sarif").stdout);
    expect(sarif.version).toBe("2.1.0");
    const [result] = sarif.runs[0].results;
    expect(result.ruleId).toBe("response-optional-property-removed");
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe(TAG);
    expect(sarif.runs[0].tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
  });

  it("writes the report to --output", () => {
    const result = cli("HEAD~1", "--format", "json", "--output", "report.json");
    expect(result.stdout).toBe("");
    expect(JSON.parse(read("report.json")).counts.error).toBe(1);
  });

  it("lists the rules, and writes the contract changes between two revisions as release notes", () => {
    const rules = cli("rules", "--format", "json");
    expect(rules.status).toBe(0);
    expect(
      JSON.parse(rules.stdout).some((rule: { id: string }) => rule.id === "response-property-removed"),
    ).toBe(true);
    const notes = cli("changelog", "HEAD~1", "HEAD");
    expect(notes.status).toBe(0);
    expect(notes.stdout).toContain("#### `POST /tags.create`");
    expect(notes.stdout).toContain("**Breaking: ");
  });
});
