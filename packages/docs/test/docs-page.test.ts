// What src/render/docs-page.mjs adds to the page: the changelog (each released version's contract changes) and the
// one-line scopes of an operation; and how the page shows what the contract deprecates (src/render/docs-html.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpec } from "@workapi/spec";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { changelog, scopeLine } from "../src/render/docs-page.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { deprecatedBadge } from "../src/render/docs-schema-html.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { renderDocs } from "../src/render/generate.mjs";

const root = mkdtempSync(join(tmpdir(), "workapi-docs-page-"));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the changelog section", () => {
  it("says plainly when nothing is released", () => {
    mkdirSync(join(root, "empty", "packages", "spec"), { recursive: true });
    expect(changelog(join(root, "empty"))).toContain("None yet: no version has been released.");
  });

  it("lists each released version's contract changes, newest first, with no heading below the version", () => {
    const at = join(root, "full");
    mkdirSync(join(at, "packages", "spec"), { recursive: true });
    writeFileSync(
      join(at, "packages", "spec", "CONTRACT-CHANGES.md"),
      "# Contract changes\n\nIntro.\n\n## 2.0.0\n\n### Since 1.0.0\n\n#### `POST /tags.create` (tags-create)\n\n" +
        "- **Breaking: response(201).tag.name: required property removed (response-property-removed)**\n\n" +
        "## 1.0.0\n\n### First release\n\n#### `GET /tags.list` (tags-list)\n\n- operation added (operation-added)\n",
    );
    const text = changelog(at);
    expect(text.indexOf("### 2.0.0")).toBeLessThan(text.indexOf("### 1.0.0"));
    expect(text).toContain("**`POST /tags.create` (tags-create)**");
    expect(text).toContain("required property removed (response-property-removed)");
    expect(text).not.toMatch(/^#### /m);
    expect(text).not.toContain("Intro.");
  });
});

describe("the scope line", () => {
  const where = "POST /x (x)";
  it("joins the alternatives of a security requirement", () => {
    const operation = {
      security: [{ bearer: ["tag:read"] }, { bearer: ["tag:write"] }, { bearer: ["tag:all"] }],
    };
    expect(scopeLine(operation, where)).toBe("Scopes: `tag:read`, `tag:write` or `tag:all`");
    expect(scopeLine({ security: [{ bearer: ["a:read", "b:read"] }] }, where)).toBe(
      "Scopes: `a:read` and `b:read`",
    );
    expect(scopeLine({ security: [] }, where)).toBe("No token needed.");
  });

  it("says scopes by type once when every type follows one pattern, and checks them against the requirement", () => {
    const byType = {
      source: "field",
      field: "type",
      scopes: { issue: ["issue:read", "issue:all"], ticket: ["ticket:read", "ticket:all"] },
    };
    const security = ["issue:read", "issue:all", "ticket:read", "ticket:all"].map((scope) => ({
      bearer: [scope],
    }));
    const operation = { "x-interface-name": "works.export", "x-scopes-by-type": byType, security };
    expect(scopeLine(operation, where)).toBe(
      "Scopes by work type: `<type>:read` or `<type>:all`, where `<type>` is `issue` or `ticket`",
    );
    const uneven = { ...byType, source: "parent", scopes: { issue: ["issue:read"], ticket: ["ticket:all"] } };
    expect(
      scopeLine(
        {
          ...operation,
          "x-scopes-by-type": uneven,
          security: [{ bearer: ["issue:read"] }, { bearer: ["ticket:all"] }],
        },
        where,
      ),
    ).toBe("Scopes by the type of the record it belongs to: `issue`: `issue:read`; `ticket`: `ticket:all`");
    expect(() => scopeLine({ ...operation, security: security.slice(1) }, where)).toThrow(/different scopes/);
  });
});

describe("what the contract deprecates, on the page", () => {
  it("is badged with its sunset date, as a date even when the contract gives a date-time", () => {
    expect(deprecatedBadge("2027-06-30")).toBe(
      '<span class="badge deprecated">Deprecated: sunset 2027-06-30</span>',
    );
    expect(deprecatedBadge("2027-06-30T12:00:00Z")).toBe(
      '<span class="badge deprecated">Deprecated: sunset 2027-06-30</span>',
    );
    expect(deprecatedBadge(undefined)).toBe('<span class="badge deprecated">Deprecated</span>');
  });

  it("badges a deprecated operation and parameter with their sunset dates, and nothing that only has a date", async () => {
    const doc = loadSpec();
    const list = (doc.paths["/tags.list"] as unknown as { get: Record<string, unknown> }).get;
    const parameters = structuredClone(list.parameters) as Record<string, unknown>[];
    const name = parameters.find((parameter) => parameter.name === "name");
    if (!name) throw new Error("tags.list has no `name` parameter");
    Object.assign(name, { deprecated: true, "x-sunset": "2027-01-31T00:00:00Z" });
    Object.assign(list, { deprecated: true, "x-sunset": "2027-06-30", parameters });
    // An x-sunset without `deprecated` deprecates nothing.
    const create = (doc.paths["/tags.create"] as unknown as { post: Record<string, unknown> }).post;
    Object.assign(create, { "x-sunset": "2027-06-30" });

    const html: string = await renderDocs(repoRoot, doc, []);
    const start = html.indexOf('id="tag/tags/operation/tags-list"');
    const part = html.slice(start, html.indexOf("</section>", start));
    expect(part).toContain('<span class="badge deprecated">Deprecated: sunset 2027-06-30</span>');
    const field = part.slice(part.indexOf('<code class="field-name">name</code>'));
    expect(field.slice(0, field.indexOf("</div>"))).toContain(
      '<span class="badge deprecated">deprecated: sunset 2027-01-31</span>',
    );
    // The operation and its one parameter, nothing else.
    expect(html.match(/class="badge deprecated"/g)?.length).toBe(2);
  });
});
