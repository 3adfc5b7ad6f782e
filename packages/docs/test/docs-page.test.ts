// What scripts/docs-page.mjs adds to the page: the changelog (each released version's contract changes) and the
// one-line scopes of an operation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a script of the repository, plain JavaScript without declarations
import { changelog, deprecationLine, docsDocument, scopeLine } from "../../../scripts/docs-page.mjs";

const root = mkdtempSync(join(tmpdir(), "workapi-docs-page-"));
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

describe("the deprecation line", () => {
  it("gives the sunset date of what the contract deprecates, and nothing for the rest", () => {
    expect(deprecationLine({ deprecated: true, "x-sunset": "2027-06-30" })).toMatch(
      /^\*\*Deprecated: sunset on 2027-06-30\.\*\*/,
    );
    expect(deprecationLine({ deprecated: true })).toMatch(/^\*\*Deprecated\.\*\*/);
    expect(deprecationLine({ "x-sunset": "2027-06-30" })).toBeUndefined();
  });

  it("leads the description of a deprecated operation and parameter on the page", () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "t", version: "1", description: "d" },
      paths: {
        "/tags.list": {
          get: {
            operationId: "tags-list",
            deprecated: true,
            "x-sunset": "2027-06-30",
            description: "Lists tags.",
            parameters: [{ name: "q", in: "query", deprecated: true, "x-sunset": "2027-01-31" }],
            security: [{ bearer: ["tag:read"] }],
          },
        },
      },
    };
    mkdirSync(join(root, "deprecated", "packages", "spec"), { recursive: true });
    const page = docsDocument(doc, { root: join(root, "deprecated"), variables: [] });
    const operation = page.paths["/tags.list"].get;
    expect(operation.description).toMatch(/sunset on 2027-06-30[\s\S]*Lists tags\./);
    expect(operation.parameters[0].description).toMatch(/^\*\*Deprecated: sunset on 2027-01-31/);
  });
});
