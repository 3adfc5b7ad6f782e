// The search's index, read from the page's own HTML when the search is first used (part of the docs page's
// script): every operation, parameter, schema, schema field and error type is already there with its anchor and
// description, so the page does not carry them a second time as JSON (that index weighed 300 kB). Each entry is
// [kind, label, anchor, where, text], kinds `operation`, `parameter`, `field`, `error`, `schema`.
const text = (node, limit = 200) => {
  const flat = (node?.textContent ?? "").replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
};

/** The prose of a part: its paragraphs before its first list of fields. */
const prose = (section, limit) =>
  text(
    { textContent: [...section.querySelectorAll(":scope > p")].map((p) => p.textContent).join(" ") },
    limit,
  );

function operations(entries) {
  for (const section of document.querySelectorAll("section.operation")) {
    const name = section.querySelector(".op-line .name")?.textContent ?? "";
    const method = section.querySelector(".op-line .method")?.textContent ?? "";
    const where = `${method} ${section.querySelector(".op-line .path")?.textContent ?? ""}`;
    const summary = section.querySelector("h3")?.textContent ?? "";
    entries.push(["operation", name, section.id, where, `${summary} ${prose(section, 400)}`]);
    for (const field of section.querySelectorAll('li[id*="/query/"], li[id*="/path/"], li[id*="/header/"]')) {
      const place = field.id.slice(section.id.length + 1).split("/")[0];
      const label = field.querySelector(".field-name")?.textContent ?? "";
      // A parameter leads to its operation, whose console takes it.
      entries.push([
        "parameter",
        label,
        section.id,
        `${place} parameter of ${name} (${method})`,
        text(field.querySelector(":scope > p")),
      ]);
    }
  }
}

function schemas(entries) {
  for (const section of document.querySelectorAll('section.schema[id^="schema/"]')) {
    const name = section.id.slice("schema/".length);
    const type = section.dataset.errorType;
    if (type) entries.push(["error", type, section.id, `error type · ${name}`, prose(section)]);
    entries.push(["schema", name, section.id, "schema", prose(section)]);
    // The schema's own fields (not those of the objects nested in them).
    for (const field of section.querySelectorAll(":scope > ul.fields > li[id]")) {
      const label = field.querySelector(".field-name")?.textContent ?? "";
      entries.push(["field", label, field.id, `field of ${name}`, text(field.querySelector(":scope > p"))]);
    }
  }
}

let index;

/** The index, built on first use. */
export function searchIndex() {
  if (!index) {
    index = [];
    operations(index);
    schemas(index);
  }
  return index;
}
