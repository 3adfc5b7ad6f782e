// What changed in each operation (src/render/docs-changes.mjs): read from the released versions' contract changes
// and from the pending changesets that bump @workapi/spec, the next version's number included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { nextVersion, oneLine, operationHistory, releasedChanges } from "../src/render/docs-changes.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { historyHtml } from "../src/render/docs-html.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { renderDocs } from "../src/render/generate.mjs";

const root = mkdtempSync(join(tmpdir(), "workapi-docs-changes-"));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RELEASED = [
  "# Contract changes\n\nIntro.\n\n## 2.0.0\n\n### Since 1.0.0\n\n",
  "#### `POST /slas.update` (slas-update)\n\n- **Breaking: response(201) added, response(200) removed (response-success-status-removed)**\n\n",
  "## 1.0.0\n\n### First release\n\n#### `POST /slas.update` (slas-update)\n\n- operation added (operation-added)\n\n",
  "#### `GET /tags.list` (tags-list)\n\n- operation added (operation-added)\n",
].join("");

const operation = (operationId: string, name: string, extra = {}) => ({
  path: `/${name}`,
  method: "post",
  raw: { operationId, "x-interface-name": name, ...extra },
});

describe("what changed in each operation", () => {
  it("reads each released version's entries per operation, the one it came in marked", () => {
    const byOperation = releasedChanges(RELEASED);
    expect(byOperation.get("slas-update")).toEqual([
      {
        version: "2.0.0",
        added: false,
        lines: ["Breaking: response(201) added, response(200) removed (response-success-status-removed)"],
      },
      { version: "1.0.0", added: true, lines: [] },
    ]);
    expect(byOperation.get("tags-list")).toEqual([{ version: "1.0.0", added: true, lines: [] }]);
  });

  it("raises a version as changesets do, and cuts a changeset's item to its first sentence", () => {
    expect(nextVersion("0.0.0", "major")).toBe("1.0.0");
    expect(nextVersion("1.4.2", "minor")).toBe("1.5.0");
    expect(nextVersion("1.4.2", "patch")).toBe("1.4.3");
    expect(oneLine("`slas.update` answers 201 (was 200), as documented; callers must accept 201.")).toBe(
      "`slas.update` answers 201 (was 200), as documented",
    );
  });

  it("adds the pending changesets' lines that name an operation under the next version, and the deprecation", () => {
    const at = join(root, "repo");
    mkdirSync(join(at, "packages", "spec"), { recursive: true });
    mkdirSync(join(at, ".changeset"), { recursive: true });
    writeFileSync(join(at, "packages", "spec", "CONTRACT-CHANGES.md"), RELEASED);
    writeFileSync(
      join(at, ".changeset", "sla-answer.md"),
      '---\n"@workapi/spec": minor\n"@workapi/server": minor\n---\n\n- `slas.update` takes a `note` from now on. More words.\n- `tags.list`, `slas.update`\n',
    );
    // A changeset that does not bump the contract says nothing of it.
    writeFileSync(
      join(at, ".changeset", "server-only.md"),
      '---\n"@workapi/server": patch\n---\n\n`tags.list` answers faster than before.\n',
    );
    const operations = [
      operation("slas-update", "slas.update"),
      operation("tags-list", "tags.list", { deprecated: true, "x-sunset": "2027-01-31" }),
      operation("tags-new", "tags.new"),
    ];
    const history = operationHistory(at, { info: { version: "2.0.0" } }, operations);
    expect(history.get("slas-update")).toEqual({
      added: { version: "1.0.0", pending: false },
      changes: [
        { version: "2.1.0", pending: true, lines: ["`slas.update` takes a `note` from now on"] },
        {
          version: "2.0.0",
          pending: false,
          lines: ["Breaking: response(201) added, response(200) removed (response-success-status-removed)"],
        },
      ],
      deprecated: false,
      sunset: undefined,
    });
    expect(history.get("tags-list")).toMatchObject({ changes: [], deprecated: true, sunset: "2027-01-31" });
    expect(history.get("tags-new")).toMatchObject({
      added: { version: "2.1.0", pending: true },
      changes: [],
    });
  });
});

describe("what the page shows of it", () => {
  it("badges the version an operation came in, its changes, and a deprecation with its sunset date", () => {
    const html: string = historyHtml({
      added: { version: "1.0.0", pending: false },
      changes: [{ version: "2.1.0", pending: true, lines: ["`slas.update` answers **201**"] }],
      deprecated: true,
      sunset: "2027-01-31",
    });
    expect(html).toContain('<span class="badge added">Added in 1.0.0</span>');
    expect(html).toContain('<span class="badge changed">Changed in 2.1.0</span>');
    expect(html).toContain('<span class="badge deprecated">Deprecated: sunset 2027-01-31</span>');
    expect(html).toContain(
      "<li><b>2.1.0 (not released yet)</b>: <code>slas.update</code> answers <strong>201</strong></li>",
    );
    const plain: string = historyHtml({
      added: { version: "1.0.0", pending: true },
      changes: [],
      deprecated: false,
    });
    expect(plain).toBe(
      '<div class="history"><span class="badge added">Added in 1.0.0 (not released yet)</span></div>',
    );
  });
});

describe("a deprecated operation on the page", () => {
  it("carries the badge with its sunset date, and its sidebar entry is struck through", async () => {
    const doc = loadSpec();
    const item = doc.paths["/tags.list"] as unknown as { get: Record<string, unknown> };
    Object.assign(item.get, { deprecated: true, "x-sunset": "2027-03-31" });
    const html: string = await renderDocs(repoRoot, doc, []);
    const start = html.indexOf('id="tag/tags/operation/tags-list"');
    const part = html.slice(start, html.indexOf("</section>", start));
    expect(part).toContain('<span class="badge deprecated">Deprecated: sunset 2027-03-31</span>');
    expect(html).toContain('<a href="#tag/tags/operation/tags-list" class="deprecated">');
    // The other operations are not marked.
    expect(html.match(/class="badge deprecated"/g)?.length).toBe(1);
  });
});
