// The console checks a request before sending it with Ajv's standalone code, compiled when the page is made
// with the reference server's factory (src/render/request-validators.mjs). Its verdicts are those of a
// validator the server's factory compiles here (@workapi/spec/validators), on every example of
// the contract and on values made wrong from them; its one problem is put at a field; and the console's
// request(), as the page bundles it, passes every operation's prefilled console.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { deref, loadSpec } from "@workapi/spec";
import { createAjv } from "@workapi/spec/validators";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { generatedModules } from "../src/render/page-script.mjs";
// @ts-expect-error: a module of the docs generator, plain JavaScript without declarations
import { requestSchemas, requestValidatorModules } from "../src/render/request-validators.mjs";
import { consoleData } from "./console-data.js";

type Problem = { path: Array<string | number>; message: string };
type Check = (operation: { id: string }, input: unknown) => Problem[];

const spec = loadSpec();
const SPEC_ID = "https://workapi.invalid/openapi.json";
const work = mkdtempSync(join(tmpdir(), "workapi-request-check-"));
let bodyProblems: Check;
let queryProblems: Check;
type Editors = { params?: { control: { read(): unknown } }; body?: { read(): unknown } };
type Request = (
  operation: ConsoleOperation,
  editors: Editors,
) => { params: unknown; body: unknown; errors: { params: Problem[]; body: Problem[] } };
type ConsoleOperation = {
  id: string;
  params: Array<{ name: string; example?: unknown }>;
  body?: { type: string; required: boolean; example?: unknown };
};
let request: Request;

type Media = { example?: unknown; examples?: Record<string, unknown> };
const mediaOf = (requestBody: unknown) =>
  (deref(spec, requestBody).node as { content: Record<string, Media> }).content["application/json"] as Media;

/** A validator made as the server makes it (its factory, compiled in this process): the console's verdict. */
function serverValidator(kind: "inputs" | "queries") {
  const ajv = createAjv(kind);
  ajv.addSchema({ $id: SPEC_ID, components: spec.components }, SPEC_ID);
  return (schema: unknown) => {
    const validate = ajv.compile(
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`)),
    );
    return (value: unknown) => validate(structuredClone(value));
  };
}

/** The example values a body or query has in the contract, and values made wrong from each. */
function variants(example: Record<string, unknown>): unknown[] {
  const out: unknown[] = [example, { ...example, zz_not_a_field: 1 }, [], "text", null];
  for (const key of Object.keys(example)) {
    const { [key]: _dropped, ...without } = example;
    out.push(without);
    for (const wrong of [12345, "", null, true, [], {}, ["x"], "not-a-value"])
      out.push({ ...example, [key]: wrong });
  }
  return out;
}

beforeAll(async () => {
  // The console's modules as the page bundles them, with the validators generated from the contract; the
  // console reads the page's address when it loads, which Node has none of.
  Object.assign(globalThis, { location: { protocol: "file:", pathname: "/index.html" } });
  const { outputFiles } = await build({
    stdin: {
      // console-checks.js hands the validators over as console.js does on the page.
      contents:
        'import "./console-checks.js";\nexport * from "./request-check.js";\nexport { request } from "./console.js";\n',
      resolveDir: new URL("../src/console/", import.meta.url).pathname,
    },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
    plugins: [generatedModules(requestValidatorModules(spec))],
  });
  const file = join(work, "request-check.mjs");
  writeFileSync(file, outputFiles[0]?.text ?? "");
  ({ bodyProblems, queryProblems, request } = await import(pathToFileURL(file).href));
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the console's request check", () => {
  const { bodies, queries } = requestSchemas(spec) as {
    bodies: Record<string, unknown>;
    queries: Record<string, unknown>;
  };

  it("says what the server's validator says about every body example and values made wrong from them", () => {
    const compile = serverValidator("inputs");
    const disagreements: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const raw of Object.values(item ?? {}) as Array<Record<string, unknown>>) {
        const id = raw.operationId as string;
        if (!(id in bodies) || !raw.requestBody) continue;
        const media = mediaOf(raw.requestBody);
        const examples = [
          media.example,
          ...Object.values(media.examples ?? {}).map(
            (e) => (deref(spec, e).node as { value: unknown }).value,
          ),
        ];
        const server = compile(bodies[id]);
        const objects = examples.filter((e): e is Record<string, unknown> => !!e && typeof e === "object");
        for (const example of objects) {
          for (const value of variants(example)) {
            checked += 1;
            const problems = bodyProblems({ id }, value);
            if (server(value) !== (problems.length === 0))
              disagreements.push(`${path} ${JSON.stringify(value)}: ${JSON.stringify(problems)}`);
            if (problems.length > 1) disagreements.push(`${path}: more than one problem`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(disagreements).toEqual([]);
  });

  it("says what the server's validator says about every query example and values made wrong from them", () => {
    const compile = serverValidator("queries");
    const disagreements: string[] = [];
    for (const [id, schema] of Object.entries(queries)) {
      const { properties } = schema as { properties: Record<string, { example?: unknown }> };
      const server = compile(schema);
      const example = Object.fromEntries(
        Object.entries(properties)
          .filter(([, property]) => property.example !== undefined)
          .map(([name, property]) => [name, property.example]),
      );
      for (const value of variants(example)) {
        const problems = queryProblems({ id }, value);
        if (server(value) !== (problems.length === 0))
          disagreements.push(`${id} ${JSON.stringify(value)}: ${JSON.stringify(problems)}`);
      }
    }
    expect(Object.keys(queries).length).toBeGreaterThan(30);
    expect(disagreements).toEqual([]);
  });

  it("puts the problem at its field, in a few words", () => {
    const works = (spec.paths["/works.create"] as unknown as { post: { requestBody: unknown } }).post;
    const example = mediaOf(works.requestBody).example as Record<string, unknown>;
    const create = { id: "works-create" };
    expect(bodyProblems(create, example)).toEqual([]);
    expect(bodyProblems(create, { ...example, title: "" })).toEqual([
      { path: ["title"], message: "must not be empty" },
    ]);
    const { title: _title, ...untitled } = example;
    expect(bodyProblems(create, untitled)).toEqual([{ path: ["title"], message: "is required" }]);
    expect(bodyProblems(create, { ...example, title: 5 })).toEqual([
      { path: ["title"], message: "must be string, not integer" },
    ]);
    expect(bodyProblems(create, { ...example, type: "bug" })[0]?.path).toEqual(["type"]);
    expect(queryProblems({ id: "works-list" }, { limit: 0 })).toEqual([
      { path: ["limit"], message: "must be >= 1" },
    ]);
    expect(queryProblems({ id: "works-list" }, { nope: 1 })).toEqual([
      { path: ["nope"], message: "is not a field of this object" },
    ]);
  });

  it("sends the request as typed: the server's defaults and coercions fill in a copy", () => {
    const params = { limit: "5" };
    expect(queryProblems({ id: "works-list" }, params)).toEqual([]);
    expect(params).toEqual({ limit: "5" });
  });

  it("passes every operation's console as prefilled, and refuses a body the server would refuse", async () => {
    const data = consoleData<{ operations: ConsoleOperation[] }>();
    const refused: unknown[] = [];
    for (const operation of data.operations) {
      const params = Object.fromEntries(
        operation.params.filter((p) => p.example !== undefined).map((p) => [p.name, p.example]),
      );
      const editors: Editors = { params: { control: { read: () => params } } };
      if (operation.body?.type === "application/json") editors.body = { read: () => operation.body?.example };
      const { errors } = request(operation, editors);
      if (errors.params.length || errors.body.length) refused.push([operation.id, errors]);
    }
    expect(data.operations.length).toBeGreaterThan(90);
    expect(refused).toEqual([]);
    const create = data.operations.find((operation) => operation.id === "works-create");
    if (!create) throw new Error("the page has no works.create console");
    const example = create.body?.example as Record<string, unknown>;
    const { errors } = request(create, { body: { read: () => ({ ...example, title: "" }) } });
    expect(errors).toEqual({ params: [], body: [{ path: ["title"], message: "must not be empty" }] });
  });
});
