// What scripts/docs-page.mjs adds to the page: the changelog (released versions from CHANGELOG.md files,
// pending changesets) and the one-line scopes of an operation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a script of the repository, plain JavaScript without declarations
import { changelog, scopeLine } from "../../../scripts/docs-page.mjs";

const root = mkdtempSync(join(tmpdir(), "workapi-docs-page-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const released = (name: string) => `# ${name}

## 0.2.0

### Minor Changes

- 1a2b3c4: Works can be exported by stage.
  The GET form takes \`stage.name\`.

### Patch Changes

- Updated dependencies
  - @workapi/types@0.2.0

## 0.1.0

### Minor Changes

- 5d6e7f8: First release.
`;

describe("the changelog section", () => {
  it("says plainly when nothing is released or pending", () => {
    mkdirSync(join(root, "empty", "packages", "spec"), { recursive: true });
    const text = changelog(join(root, "empty"));
    expect(text).toContain("### Released versions\n\nNone yet: no version has been released.");
    expect(text).toContain("### Unreleased\n\nThe changes the next release will carry.\n\nNone.");
  });

  it("lists released versions newest first, each change once with its packages, then pending changesets", () => {
    const at = join(root, "full");
    for (const dir of ["docs", "spec"]) {
      mkdirSync(join(at, "packages", dir), { recursive: true });
      writeFileSync(join(at, "packages", dir, "CHANGELOG.md"), released(`@workapi/${dir}`));
    }
    mkdirSync(join(at, ".changeset"));
    writeFileSync(join(at, ".changeset", "README.md"), "How to write a changeset.\n");
    writeFileSync(
      join(at, ".changeset", "b-second.md"),
      '---\n"@workapi/spec": patch\n---\n\n## Heading\n\nFixed.\n',
    );
    writeFileSync(join(at, ".changeset", "a-first.md"), '---\n"@workapi/server": minor\n---\n\nAdded.\n');
    const text = changelog(at);
    expect(text.indexOf("#### 0.2.0")).toBeLessThan(text.indexOf("#### 0.1.0"));
    expect(text).toContain(
      "- **@workapi/docs, @workapi/spec**: Works can be exported by stage.\n  The GET form takes `stage.name`.",
    );
    expect(text).toContain("- **@workapi/docs, @workapi/spec**: First release.");
    expect(text).not.toContain("Updated dependencies");
    expect(text).not.toContain("How to write");
    const pending = text.slice(text.indexOf("### Unreleased"));
    expect(pending.indexOf("@workapi/server (minor)")).toBeLessThan(pending.indexOf("@workapi/spec (patch)"));
    // A heading inside a summary would enter the page's table of contents: it becomes bold text.
    expect(pending).toContain("**Heading**");
    expect(pending).not.toContain("## Heading");
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
