// The docs page's HTML, rendered when the page is generated, so that a browser shows every operation's text
// before any script runs: a sidebar of the contract's tags and operations, the introduction (with the code
// samples' variables and the changelog), one part per operation (its method and path, what changed in it, its
// scopes and description, parameters, body, answers and code samples) and one part per named schema. The
// page's script (src/console/) then adds the console, the search and the sandbox button.

import { deref } from "@workapi/spec";
import { operationAnchor as anchorOf } from "../../index.js";
import { errorTypes } from "./docs-console-data.mjs";
import {
  deprecatedBadge,
  escapeHtml,
  escapeText,
  fieldHtml,
  inlineMarkdown,
  markdown,
  namedSchemaHtml,
  schemaAnchor,
  schemaBlock,
  typeLabel,
} from "./docs-schema-html.mjs";

/** The anchor of an operation's part (@workapi/docs says its form, which the server's deprecation links use). */
export const operationAnchor = ({ raw }) => anchorOf(raw);

/** The anchor of an introduction's section (`section/Changelog`). */
const sectionAnchor = (title) => `section/${title.replace(/\s+/g, "-")}`;

/** The introduction: the contract's description, one section per `## ` heading. */
function introduction(definition) {
  const [lead, ...sections] = definition.info.description.split(/^(?=## )/m);
  const parts = [
    `<section class="intro" id="${sectionAnchor("Introduction")}">`,
    markdown(lead),
    "</section>",
  ];
  for (const section of sections) {
    const title = section.slice(3, section.indexOf("\n")).trim();
    const body = section.slice(section.indexOf("\n") + 1);
    parts.push(
      `<section class="intro" id="${escapeHtml(sectionAnchor(title))}">`,
      `<h2>${escapeHtml(title)}</h2>`,
      markdown(body),
      "</section>",
    );
  }
  return parts.join("\n");
}

/** The version an operation came in and what changed in it since, and its deprecation, as badges and lines. */
export function historyHtml(history) {
  if (!history) return "";
  const { added, changes, deprecated, sunset } = history;
  const pending = (entry) => (entry.pending ? " (not released yet)" : "");
  const badges = [`<span class="badge added">Added in ${escapeHtml(added.version)}${pending(added)}</span>`];
  if (changes.length)
    badges.push(
      `<span class="badge changed">Changed in ${changes.map((c) => escapeHtml(c.version)).join(", ")}</span>`,
    );
  if (deprecated) badges.push(deprecatedBadge(sunset));
  const lines = changes.flatMap((entry) =>
    entry.lines.map(
      (line) => `<li><b>${escapeHtml(entry.version)}${pending(entry)}</b>: ${inlineMarkdown(line)}</li>`,
    ),
  );
  return `<div class="history">${badges.join(" ")}${lines.length ? `<ul class="changes">${lines.join("")}</ul>` : ""}</div>`;
}

function parametersHtml(doc, raw, anchor) {
  const groups = new Map();
  for (const ref of raw.parameters ?? []) {
    const parameter = deref(doc, ref).node;
    // A parameter's own `deprecated` and `x-sunset` (what the server answers with Deprecation and Sunset).
    const marks =
      parameter.deprecated === true ? { deprecated: true, "x-sunset": parameter["x-sunset"] } : {};
    const field = fieldHtml(doc, {
      name: parameter.name,
      schema: {
        ...parameter.schema,
        description: parameter.description ?? parameter.schema?.description,
        ...marks,
      },
      required: parameter.required === true,
      anchor: `${anchor}/${parameter.in}/${parameter.name}`,
    });
    groups.set(parameter.in, [...(groups.get(parameter.in) ?? []), field]);
  }
  return [...groups]
    .map(
      ([where, fields]) =>
        `<h4>${escapeHtml(where[0].toUpperCase() + where.slice(1))} parameters</h4><ul class="fields">${fields.join("")}</ul>`,
    )
    .join("");
}

function bodyHtml(doc, raw, anchor) {
  if (!raw.requestBody) return "";
  const body = deref(doc, raw.requestBody).node;
  return Object.entries(body.content ?? {})
    .map(
      ([type, media]) =>
        `<h4>Request body <span class="media">${escapeHtml(type)}</span>${body.required ? ' <span class="required">required</span>' : ""}</h4>${schemaBlock(doc, media.schema ?? {}, `${anchor}/body`)}`,
    )
    .join("");
}

/** The name of a shared answer (`#/components/responses/<Name>`), which the page describes once. */
const sharedResponse = (ref) =>
  typeof ref?.$ref === "string" && ref.$ref.startsWith("#/components/responses/")
    ? ref.$ref.slice(23)
    : undefined;

/** The anchor of a shared answer's part of the page. */
const responseAnchor = (name) => `response/${name}`;

function responseHead(status, response) {
  return `<span class="status s${status[0]}">${escapeHtml(status)}</span> ${inlineMarkdown(response.description ?? "")}`;
}

function responsesHtml(doc, raw, anchor) {
  const shared = [];
  const rows = Object.entries(raw.responses ?? {}).map(([status, ref]) => {
    const response = deref(doc, ref).node;
    const schema = response.content?.["application/json"]?.schema;
    // The answers every operation may give (400, 401, 429...) are described once, in the Answers part, and
    // linked: spelled out under each of 104 operations, they weighed a quarter of the page.
    const name = sharedResponse(ref);
    if (name && !/^2/.test(status)) {
      shared.push(`<a href="#${responseAnchor(name)}">${escapeHtml(status)}</a>`);
      return "";
    }
    const head = responseHead(status, response);
    // A success's body is spelled out; an error's body is one of the shared error schemas, linked.
    if (/^2/.test(status)) {
      return `<details class="response" open><summary>${head}</summary>${schema ? schemaBlock(doc, schema, `${anchor}/${status}`) : ""}</details>`;
    }
    return `<p class="response">${head}${schema ? ` · ${typeLabel(doc, schema)}` : ""}</p>`;
  });
  const common = shared.length ? `<p class="response">Shared answers: ${shared.join(", ")}</p>` : "";
  const everywhere = everyOperationsErrorTypes(doc);
  const own = (raw["x-error-types"] ?? []).filter((type) => !everywhere.has(type));
  const types = errorTypeLinks(doc, own);
  // The types every operation may answer with are listed once, with the shared answers.
  if (everywhere.size) types.push('<a href="#responses">those of every operation</a>');
  const errors = types.length ? `<p class="error-types">Error types: ${types.join(", ")}</p>` : "";
  return `<h4>Responses</h4>${rows.join("")}${common}${errors}`;
}

/** The error `types` as links to their schemas (or as code, for a type with no schema of its own). */
function errorTypeLinks(doc, types) {
  const known = errorTypes(doc);
  return types.map((type) =>
    known.has(type)
      ? `<a href="#${schemaAnchor(known.get(type))}"><code>${escapeHtml(type)}</code></a>`
      : `<code>${escapeHtml(type)}</code>`,
  );
}

/** everyOperationsErrorTypes' answer per contract: each operation's part asks, and the answer reads them all. */
const errorTypesOfEvery = new WeakMap();

/** The error types every operation lists (its `x-error-types`). */
function everyOperationsErrorTypes(doc) {
  let types = errorTypesOfEvery.get(doc);
  if (!types) {
    types = errorTypesEveryOperationLists(doc);
    errorTypesOfEvery.set(doc, types);
  }
  return types;
}

function errorTypesEveryOperationLists(doc) {
  const lists = Object.values(doc.paths ?? {}).flatMap((item) =>
    Object.values(item ?? {})
      .filter((operation) => operation?.responses)
      .map((operation) => operation["x-error-types"] ?? []),
  );
  return new Set((lists[0] ?? []).filter((type) => lists.every((list) => list.includes(type))));
}

/** The shared answers' part: each answer once, with its status, description and body's schema. */
function sharedResponsesHtml(doc) {
  const statuses = new Map();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item ?? {})) {
      for (const [status, ref] of Object.entries(operation?.responses ?? {})) {
        const name = sharedResponse(ref);
        if (name && !statuses.has(name)) statuses.set(name, status);
      }
    }
  }
  const everywhere = errorTypeLinks(doc, [...everyOperationsErrorTypes(doc)]);
  const parts = [
    `<section class="tag" id="responses"><h2>Shared answers</h2><p>The answers many operations may give, each linked from theirs. Every operation may answer with the error types ${everywhere.join(", ")}.</p></section>`,
  ];
  for (const [name, status] of statuses) {
    const response = doc.components.responses[name];
    const schema = response.content?.["application/json"]?.schema;
    parts.push(
      `<section class="schema" id="${responseAnchor(name)}"><h3>${escapeHtml(status)} ${escapeHtml(name)}</h3><p>${responseHead(status, response)}</p>${schema ? `<p class="schema-ref">Body: ${typeLabel(doc, schema)}</p>` : ""}</section>`,
    );
  }
  return parts.join("\n");
}

/** The code samples; each box scrolls, so it takes the focus (tabindex) for a keyboard to scroll it. */
function samplesHtml(raw) {
  const samples = raw["x-codeSamples"] ?? [];
  if (!samples.length) return "";
  const tabs = samples.map(
    (sample, index) =>
      `<details class="sample"${index === 0 ? " open" : ""}><summary>${escapeHtml(sample.label)}</summary><pre tabindex="0"><code>${escapeText(sample.source)}</code></pre></details>`,
  );
  return `<h4>Code samples</h4>${tabs.join("")}`;
}

/** One operation's part of the page. */
function operationHtml(doc, operation, copy, history) {
  const { raw, method, path } = operation;
  const anchor = escapeHtml(operationAnchor(operation));
  return [
    `<section class="operation" id="${anchor}" data-operation="${escapeHtml(raw.operationId)}">`,
    `<h3>${escapeHtml(raw.summary ?? raw["x-interface-name"])}</h3>`,
    `<p class="op-line"><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code> <code class="name">${escapeHtml(raw["x-interface-name"])}</code> <button type="button" class="try-open" data-operation="${escapeHtml(raw.operationId)}">Try it</button></p>`,
    historyHtml(history),
    // The console opens here, under the operation's name, when its button is pressed (the page's script).
    '<div class="console-slot"></div>',
    markdown(copy.description),
    parametersHtml(doc, raw, operationAnchor(operation)),
    bodyHtml(doc, raw, operationAnchor(operation)),
    responsesHtml(doc, raw, operationAnchor(operation)),
    samplesHtml(raw),
    "</section>",
  ].join("\n");
}

/** The sidebar: the introduction's sections, each tag with its operations, the schemas. */
function navigation(definition, byTag) {
  const sections = [
    "Introduction",
    ...[...definition.info.description.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim()),
  ];
  const links = sections.map(
    (title) => `<li><a href="#${escapeHtml(sectionAnchor(title))}">${escapeHtml(title)}</a></li>`,
  );
  for (const [tag, operations] of byTag) {
    const items = operations.map(
      (operation) =>
        `<li><a href="#${escapeHtml(operationAnchor(operation))}"${operation.raw.deprecated ? ' class="deprecated"' : ""}><span class="method ${operation.method}">${operation.method.toUpperCase()}</span> ${escapeHtml(operation.raw["x-interface-name"])}</a></li>`,
    );
    links.push(`<li><a href="#tag/${escapeHtml(tag)}">${escapeHtml(tag)}</a><ul>${items.join("")}</ul></li>`);
  }
  links.push('<li><a href="#responses">Shared answers</a></li>', '<li><a href="#schemas">Schemas</a></li>');
  return `<nav id="nav" aria-label="Contents"><ul>${links.join("")}</ul></nav>`;
}

/**
 * The page's body: `operations` are [{ path, method, raw }] of the bundle, `copies` the matching operations
 * of the reader's copy (their descriptions carry the scope line), `history` what changed in each.
 */
export function pageBody({ doc, definition, operations, copies, history }) {
  const byTag = new Map();
  operations.forEach((operation, index) => {
    const tag = operation.raw.tags?.[0] ?? "other";
    byTag.set(tag, [...(byTag.get(tag) ?? []), { ...operation, copy: copies[index] }]);
  });
  const tags = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
  const main = [introduction(definition)];
  for (const [tag, members] of byTag) {
    main.push(
      `<section class="tag" id="tag/${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>${markdown(tags.get(tag))}</section>`,
      ...members.map((operation) =>
        operationHtml(doc, operation, operation.copy, history.get(operation.raw.operationId)),
      ),
    );
  }
  main.push(sharedResponsesHtml(doc));
  main.push('<section class="tag" id="schemas"><h2>Schemas</h2></section>');
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    main.push(namedSchemaHtml(doc, name, schema));
  }
  return [navigation(definition, byTag), `<main id="content">${main.join("\n")}</main>`].join("\n");
}
