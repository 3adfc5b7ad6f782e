// The console's form, built from the contract's schema of a body or of an operation's parameters (part of the
// docs page's script): a field per property, enums as choices, arrays as lists (an array of choices as a set
// of checkboxes), booleans as switches, objects as nested groups, required fields marked, examples and defaults
// filled in; anything else (alternatives, free-form objects) as a small JSON box. Each control reads its value
// (undefined: not sent) and writes one, so the form and the JSON editor can hand the body to each other, and
// each field's box carries its path (`data-path`) so that the check's errors show at their field.
const MAX_DEPTH = 4;
let ids = 0;

/** An id no other element of the page has, for tying labels, errors and controls together. */
const newId = () => `field-${++ids}`;

export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

/** The schema a `$ref` names, with `allOf` object parts merged in: what the form shows of it. */
export function shape(schema, schemas, depth = 0) {
  let node = schema ?? {};
  while (typeof node.$ref === "string")
    node = { ...schemas[node.$ref.replace("#/components/schemas/", "")], ...node, $ref: undefined };
  if (!Array.isArray(node.allOf) || depth > MAX_DEPTH) return node;
  const merged = {
    ...node,
    allOf: undefined,
    properties: { ...node.properties },
    required: [...(node.required ?? [])],
  };
  for (const part of node.allOf) {
    const resolved = shape(part, schemas, depth + 1);
    Object.assign(merged.properties, resolved.properties);
    merged.required.push(...(resolved.required ?? []));
    merged.type ??= resolved.type;
  }
  return merged;
}

const types = (schema) => [schema.type ?? (schema.properties ? "object" : [])].flat();
const isObject = (schema) =>
  types(schema).includes("object") && schema.properties && !schema.oneOf && !schema.anyOf;

function jsonControl(value) {
  const box = element("textarea", { rows: "3", spellcheck: "false", class: "json-field" });
  const control = {
    node: box,
    field: box,
    read() {
      if (!box.value.trim()) return undefined;
      try {
        return JSON.parse(box.value);
      } catch {
        throw { message: "is not valid JSON" };
      }
    },
    write(next) {
      box.value = next === undefined ? "" : JSON.stringify(next, null, 2);
    },
  };
  control.write(value);
  return control;
}

function choiceControl(schema, required, value) {
  const select = element("select", {}, [
    element("option", { value: "" }, [required ? "choose…" : "(not sent)"]),
    ...schema.enum.map((choice, index) => element("option", { value: String(index) }, [String(choice)])),
  ]);
  const control = {
    node: select,
    field: select,
    read: () => (select.value === "" ? undefined : schema.enum[Number(select.value)]),
    write(next) {
      const index = schema.enum.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(next));
      select.value = index < 0 ? "" : String(index);
    },
  };
  control.write(value);
  return control;
}

function switchControl(value) {
  const box = element("input", { type: "checkbox", role: "switch" });
  const state = element("span", { class: "switch-state" });
  let sent = value !== undefined;
  const paint = () => {
    state.textContent = sent ? String(box.checked) : "(not sent)";
  };
  box.addEventListener("change", () => {
    sent = true;
    paint();
  });
  const control = {
    node: element("span", { class: "switch" }, [box, state]),
    field: box,
    read: () => (sent ? box.checked : undefined),
    write(next) {
      sent = typeof next === "boolean";
      box.checked = next === true;
      paint();
    },
  };
  control.write(value);
  return control;
}

function textControl(schema, required, value) {
  const numeric = types(schema).some((type) => type === "integer" || type === "number");
  const input = element("input", {
    type: numeric ? "number" : "text",
    step: types(schema).includes("integer") ? "1" : undefined,
    placeholder: schema.format === "date-time" ? "2026-01-31T12:00:00Z" : schema.format,
  });
  const control = {
    node: input,
    field: input,
    read() {
      if (input.value === "") return required && !numeric ? "" : undefined;
      return numeric ? Number(input.value) : input.value;
    },
    write(next) {
      input.value = next === undefined || next === null ? "" : String(next);
    },
  };
  control.write(value);
  return control;
}

function checkboxesControl(items, value) {
  const boxes = items.enum.map((choice) => element("input", { type: "checkbox", value: String(choice) }));
  const node = element(
    "span",
    { class: "choices", role: "group" },
    boxes.map((box, i) => element("label", {}, [box, ` ${items.enum[i]}`])),
  );
  const control = {
    node,
    group: node,
    read() {
      const chosen = items.enum.filter((_, index) => boxes[index].checked);
      return chosen.length ? chosen : undefined;
    },
    write(next) {
      const chosen = Array.isArray(next) ? next.map((item) => JSON.stringify(item)) : [];
      boxes.forEach((box, index) => {
        box.checked = chosen.includes(JSON.stringify(items.enum[index]));
      });
    },
  };
  control.write(value);
  return control;
}

function listControl(schema, options, value) {
  const { schemas, path, depth } = options;
  const list = element("ol", { class: "list" });
  const add = element("button", { type: "button", class: "add" }, ["Add item"]);
  const rows = [];
  function addRow(item) {
    const row = {
      control: build(schema.items ?? {}, {
        schemas,
        path: [...path, rows.length],
        depth: depth + 1,
        required: true,
        value: item,
      }),
    };
    // An item has no label drawn: its name says whose item it is.
    const name = `${options.name ?? "item"} item ${rows.length + 1}`;
    (row.control.field ?? row.control.group)?.setAttribute("aria-label", name);
    const remove = element("button", { type: "button", class: "remove", "aria-label": `Remove ${name}` }, [
      "×",
    ]);
    row.node = element("li", {}, [row.control.node, remove]);
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      row.node.remove();
    });
    rows.push(row);
    list.append(row.node);
  }
  add.addEventListener("click", () => addRow(undefined));
  const node = element("div", { class: "list-field", role: "group" }, [list, add]);
  const control = {
    node,
    group: node,
    read() {
      const items = rows.map((row) => row.control.read());
      return items.length ? items.map((item) => (item === undefined ? "" : item)) : undefined;
    },
    write(next) {
      for (const row of rows.splice(0)) row.node.remove();
      for (const item of Array.isArray(next) ? next : []) addRow(item);
    },
  };
  control.write(value);
  return control;
}

/**
 * A field's box: its label (the property's name, which is the control's accessible name), the control, and its
 * error. The control is tied to the label (for/id, or aria-labelledby for a group of controls), says it is
 * required (aria-required where its role allows, and a "required" mark it is described by) and is described by
 * its error's box too, which showErrors fills in and marks the control aria-invalid.
 */
function labelled(control, name, required, path) {
  const id = newId();
  const target = control.field ?? control.group;
  const labelId = `${id}-label`;
  const label = element(control.field ? "label" : "span", { class: "field-label", id: labelId }, [
    element("code", {}, [name]),
  ]);
  const mark = required ? element("span", { class: "required", id: `${id}-required` }, ["required"]) : "";
  const error = element("div", { class: "field-error", id: `${id}-error`, "aria-live": "polite" });
  target.id = id;
  if (control.field) label.htmlFor = id;
  else target.setAttribute("aria-labelledby", labelId);
  if (required && control.field && control.field.type !== "checkbox")
    target.setAttribute("aria-required", "true");
  target.setAttribute("aria-describedby", [required ? `${id}-required` : "", `${id}-error`].join(" ").trim());
  const head = element("div", { class: "field-head" }, [label, mark]);
  return element("div", { class: "form-field", "data-path": path, "data-control": id }, [
    head,
    control.node,
    error,
  ]);
}

/** A group of fields, one per property of `schema`. */
function objectControl(schema, options, value) {
  const { schemas, path, depth } = options;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const control = build(property, {
      schemas,
      name,
      path: [...path, name],
      depth: depth + 1,
      required: required.has(name),
    });
    const node = labelled(control, name, required.has(name), [...path, name].join("."));
    return { name, control, node };
  });
  const node = element(
    "div",
    { class: depth === 0 ? "form-fields" : "form-fields nested", role: "group" },
    fields.map((f) => f.node),
  );
  const control = {
    node,
    group: node,
    read() {
      const out = {};
      for (const { name, control: field } of fields) {
        let item;
        try {
          item = field.read();
        } catch (error) {
          // A JSON box that does not parse: said at its field, as the check's errors are.
          throw error.path ? error : { path: [...path, name], message: error.message };
        }
        if (item !== undefined) out[name] = item;
      }
      return Object.keys(out).length || depth === 0 || options.required ? out : undefined;
    },
    write(next) {
      for (const { name, control: field } of fields) field.write(next?.[name]);
    },
  };
  control.write(value);
  return control;
}

/** The control for `schema`: options are { schemas, path, depth, required, value }. */
export function build(schema, options) {
  const { schemas, required, value, depth = 0 } = options;
  const node = shape(schema, schemas);
  const start = value !== undefined ? value : node.default;
  if (Array.isArray(node.enum)) return choiceControl(node, required, start);
  if (node.const !== undefined) return choiceControl({ enum: [node.const] }, required, start ?? node.const);
  const kinds = types(node);
  if (kinds.length === 1 && kinds[0] === "boolean") return switchControl(start);
  if (kinds.includes("array") && !node.oneOf && !node.anyOf) {
    const items = shape(node.items ?? {}, schemas);
    if (Array.isArray(items.enum)) return checkboxesControl(items, start);
    if (depth < MAX_DEPTH) return listControl(node, { ...options, depth }, start);
  }
  if (isObject(node) && depth < MAX_DEPTH) return objectControl(node, { ...options, depth }, start);
  if (kinds.length === 1 && ["string", "integer", "number"].includes(kinds[0]))
    return textControl(node, required, start);
  return jsonControl(start);
}

/** Puts each error in the box of its field (or the nearest field above it); answers those left over. */
export function showErrors(root, errors) {
  for (const box of root.querySelectorAll(".field-error")) box.textContent = "";
  for (const node of root.querySelectorAll(".form-field.invalid")) node.classList.remove("invalid");
  for (const node of root.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
  const left = [];
  for (const error of errors) {
    let path = error.path.map(String);
    const at = (keys) => root.querySelector(`.form-field[data-path="${CSS.escape(keys.join("."))}"]`);
    let field = path.length ? at(path) : null;
    while (path.length && !field) {
      path = path.slice(0, -1);
      field = path.length ? at(path) : null;
    }
    if (!field) {
      left.push(error);
      continue;
    }
    field.classList.add("invalid");
    root.querySelector(`#${CSS.escape(field.dataset.control)}`)?.setAttribute("aria-invalid", "true");
    const rest = error.path.slice(path.length).join(".");
    const box = field.querySelector(":scope > .field-error");
    box.textContent = [box.textContent, `${rest ? `${rest}: ` : ""}${error.message}`]
      .filter(Boolean)
      .join("; ");
  }
  return left;
}
