// The console's panel, opened in an operation's part of the page by its "Try it" button (part of the docs
// page's script; the pieces are in console.js): one console at a time, its settings shared.
import * as consoles from "./console.js";
import { docsData, load, loaded } from "./data.js";
import * as forms from "./form.js";
import * as samples from "./samples.js";

const { element } = forms;
let shared;
let open;

/** Sends what was checked and shows the answer with its contract check. */
async function send(operation, checked, view, settings, schemas) {
  view.node.hidden = false;
  let url;
  try {
    url = new URL(operation.path.slice(1), `${settings.base.value.replace(/\/*$/, "")}/`);
  } catch {
    view.status.value = "Not sent: type the server's base URL (http://host:port) first.";
    return;
  }
  const pairs = samples.queryPairs(operation, checked.params);
  if (pairs.length) url.search = new URLSearchParams(pairs).toString();
  const init = { method: operation.method.toUpperCase(), headers: {} };
  if (settings.token.value) init.headers.authorization = `Bearer ${settings.token.value}`;
  if (operation.method !== "get" && checked.body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(checked.body);
  }
  view.status.value = "Sending…";
  view.time.value = "";
  view.check.textContent = "";
  view.check.className = "check";
  view.headers.textContent = "";
  view.body.textContent = "";
  const started = performance.now();
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    view.status.value = `Not sent or no answer: ${error.message}`;
    return;
  }
  const text = await response.text();
  view.time.value = `${Math.round(performance.now() - started)} ms`;
  view.status.value = `${response.status} ${response.statusText}`;
  view.headers.textContent = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  try {
    view.body.textContent = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    view.body.textContent = text;
  }
  const [ok, said] = consoles.contractCheck(operation, response.status, text, schemas);
  view.check.textContent = said;
  view.check.className = ok ? "check matches" : "check mismatch";
}

/** The samples of what would be sent now (what does not parse yet is left out). */
function refreshSamples(operation, editors, settings, boxes) {
  const { params, body } = consoles.request(operation, editors);
  const base = settings.base.value || "http://localhost:8080";
  boxes.curl.textContent = samples.curl(operation, base, samples.queryPairs(operation, params), body);
  boxes.typescript.textContent = samples.typescript(operation, base, { ...params, ...(body ?? {}) });
}

function build(operation, data) {
  const { schemas } = data;
  shared ??= consoles.settings(data);
  const editors = {};
  const kept = consoles.keptInputs(operation.id);
  const parts = [element("h4", {}, [`Try ${operation.name}`]), shared.node];
  if (operation.params.length) {
    const control = forms.build(consoles.paramsSchema(operation), {
      schemas,
      path: [],
      required: true,
      value: kept ? kept.params : consoles.paramsExample(operation),
    });
    editors.params = {
      control,
      node: element("fieldset", { class: "params" }, [element("legend", {}, ["Parameters"]), control.node]),
    };
    parts.push(editors.params.node);
  }
  const multipart = operation.body && operation.body.type !== "application/json";
  if (operation.body && !multipart) {
    editors.body = kept
      ? consoles.bodyEditor(operation, schemas, kept.body)
      : consoles.bodyEditor(operation, schemas);
    parts.push(editors.body.node);
  }
  const sendButton = element("button", { type: "submit", name: "send", disabled: multipart }, ["Send"]);
  const note = element("p", { class: "console-note", role: "status" }, [
    multipart ? "This operation uploads a file: send it with its curl sample." : "",
  ]);
  const view = consoles.answerView();
  const boxes = {
    curl: element("pre", { class: "live-curl", tabindex: "0", "aria-label": "curl" }),
    typescript: element("pre", { class: "live-typescript", tabindex: "0", "aria-label": "TypeScript" }),
  };
  const live = element("details", { class: "live-samples", open: true }, [
    element("summary", {}, ["These inputs as curl and TypeScript"]),
    boxes.curl,
    boxes.typescript,
  ]);
  const form = element("form", { class: "console", "data-operation": operation.id, novalidate: true }, [
    ...parts,
    sendButton,
    note,
    view.node,
    live,
  ]);
  const refresh = () => {
    refreshSamples(operation, editors, shared, boxes);
    consoles.keepInputs(operation, editors);
  };
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  form.addEventListener("click", (event) => {
    if (event.target.closest("button.add, button.remove")) setTimeout(refresh);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const checked = consoles.request(operation, editors);
    const paramsLeft = editors.params
      ? forms.showErrors(editors.params.node, checked.errors.params)
      : checked.errors.params;
    editors.body?.show(checked.errors.body);
    const count = checked.errors.params.length + checked.errors.body.length;
    note.textContent = count
      ? `Not sent: ${count} problem(s) with what the contract allows, shown at their fields.${paramsLeft.length ? ` ${paramsLeft.map((e) => e.message).join("; ")}` : ""}`
      : "";
    note.className = count ? "console-note invalid" : "console-note";
    if (!count) send(operation, checked, view, shared, schemas);
  });
  refresh();
  return form;
}

/** Opens the console of the operation `id` in its part of the page (closing any other). */
const openConsole = (id, button) => {
  if (!loaded()) {
    // The first console loads console.js: the button is busy meanwhile, and its title says why if that fails.
    button.setAttribute("aria-busy", "true");
    load().then(
      () => {
        button.removeAttribute("aria-busy");
        openConsole(id, button);
      },
      (error) => {
        button.removeAttribute("aria-busy");
        button.title = error.message;
      },
    );
    return;
  }
  const data = docsData();
  const operation = data.operations.find((candidate) => candidate.id === id);
  const slot = document.querySelector(`.operation[data-operation="${CSS.escape(id)}"] .console-slot`);
  if (!operation || !slot) return;
  const again = open?.dataset.operation === id;
  open?.remove();
  open = undefined;
  // The button of the open console closes it.
  if (again) return;
  open = build(operation, data);
  slot.append(open);
  open.scrollIntoView({ block: "nearest" });
  // The reader goes on in the console: its first field (the base URL) has the focus.
  open.querySelector("input, select, textarea")?.focus({ preventScroll: true });
};

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("button.try-open");
  if (button) openConsole(button.dataset.operation, button);
});
