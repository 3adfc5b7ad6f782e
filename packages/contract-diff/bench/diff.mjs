// How long a diff takes: our own bundle against a copy with a change to a shared schema, and a synthetic
// contract of 1,000 operations over 200 schemas against a copy with changes spread through it. Prints the
// median of several runs of each (the first runs warm the engine up and are left out).
//
//   node packages/contract-diff/bench/diff.mjs [--runs 9]
import { loadSpec } from "@workapi/spec";
import { diffSpecs, fromDocument } from "../src/engine/index.js";

const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;
const WARMUP = 3;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(base, head) {
  const times = [];
  let report;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    report = diffSpecs(fromDocument(base), fromDocument(head));
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return { ms: median(times), report };
}

/** A contract of `operations` operations, each reading and writing records built from shared schemas. */
function synthetic(operations, schemas) {
  const doc = {
    openapi: "3.1.0",
    info: { title: "synthetic", version: "1" },
    paths: {},
    components: { schemas: {} },
  };
  for (let s = 0; s < schemas; s++) {
    const properties = {
      id: { type: "string" },
      name: { type: "string", maxLength: 200 },
      count: { type: "integer", minimum: 0 },
    };
    if (s > 0) properties.parent = { $ref: `#/components/schemas/S${s - 1}` };
    properties.kind = { type: "string", enum: ["a", "b", "c"] };
    doc.components.schemas[`S${s}`] = { type: "object", properties, required: ["id", "name"] };
  }
  for (let o = 0; o < operations; o++) {
    const schema = { $ref: `#/components/schemas/S${o % schemas}` };
    doc.paths[`/things${o}.create`] = {
      post: {
        operationId: `things${o}.create`,
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: { 201: { description: "made", content: { "application/json": { schema } } } },
      },
    };
  }
  return doc;
}

const bundle = loadSpec();
const bundleHead = structuredClone(bundle);
const tag = bundleHead.components.schemas.Tag;
const tagProperties = tag.properties ?? tag.allOf?.find((member) => member.properties)?.properties;
delete tagProperties.description;
const ours = time(bundle, bundleHead);

const base = synthetic(1000, 200);
const head = structuredClone(base);
for (let s = 0; s < 200; s += 20) {
  const schema = head.components.schemas[`S${s}`];
  schema.properties.name.maxLength = 100;
  schema.properties.kind.enum.push("d");
  schema.required.push("count");
}
for (let o = 0; o < 1000; o += 50) delete head.paths[`/things${o}.create`].post.parameters;
const big = time(base, head);

const line = (label, { ms, report }) =>
  `${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  ${String(report.findings.length).padStart(5)} findings (${report.counts.error} errors)`;
console.log(`median of ${RUNS} runs after ${WARMUP} warm-up runs, Node ${process.version}`);
console.log(line(`our bundle (${Object.keys(bundle.paths).length} paths), Tag.description removed`, ours));
console.log(line("synthetic: 1,000 operations, 200 schemas", big));
