// The console (part of the docs page's script): "Try it" on an operation opens, in that operation's part of
// the page, a form built from its contract (form.js) or a JSON editor for its body, checks
// the request against the contract's schemas before sending (validate.js: the errors show
// at their fields and nothing is sent), sends it to the page's own origin or a base URL the reader types, and
// shows the answer's status, headers, time and body, checked against the contract's schema for that status.
// The curl and TypeScript samples beside it follow what is typed. The token stays in sessionStorage (this tab
// only). Where the contract has `sandboxes.create`, one button makes a seeded sandbox and fills in its token.

import { validate } from "./answer-check.js";
import { copyButton } from "./copy.js";
import * as forms from "./form.js";
import { bodyProblems, queryProblems } from "./request-check.js";

const { element } = forms;
const stored = (key) => sessionStorage.getItem(`workapi.docs.${key}`) ?? "";
const store = (key, value) => sessionStorage.setItem(`workapi.docs.${key}`, value);
// Served by the reference server at /docs, the page's own origin is the server the console calls.
const served = /^https?:$/.test(location.protocol) && /\/docs\/?$/.test(location.pathname);
const field = (label, control) =>
  element("label", { class: "setting" }, [element("span", {}, [label]), control]);

/** The parameters as one object schema, so that they are checked and shown as one form. */
export function paramsSchema(operation) {
  const properties = Object.fromEntries(operation.params.map((param) => [param.name, param.schema]));
  const required = operation.params.filter((param) => param.required).map((param) => param.name);
  return { type: "object", properties, required };
}
export const paramsExample = (operation) =>
  Object.fromEntries(operation.params.filter((p) => p.example !== undefined).map((p) => [p.name, p.example]));

/** The settings every operation's console shares: base URL, token, and the sandbox button. */
export function settings(data) {
  const base = element("input", {
    name: "base",
    placeholder: "http://localhost:8080",
    value: stored("base") || (served ? location.origin : ""),
  });
  const token = element("input", {
    name: "token",
    type: "password",
    autocomplete: "off",
    value: stored("token"),
  });
  base.addEventListener("input", () => store("base", base.value));
  token.addEventListener("input", () => store("token", token.value));
  const node = element("div", { class: "settings" }, [
    field("Base URL", base),
    field("Token (kept in this tab only)", token),
  ]);
  const sandbox = data.operations.find((operation) => operation.name === "sandboxes.create");
  const note = element("output", { name: "sandbox-note" });
  if (sandbox) {
    const button = element("button", { type: "button", name: "sandbox" }, ["New sandbox"]);
    button.addEventListener("click", () => makeSandbox(sandbox, { base, token, note }));
    node.append(button, note);
  }
  return { node, base, token };
}

/** Makes a seeded sandbox with the console's token and puts the sandbox's own token in its place. */
async function makeSandbox(operation, { base, token, note }) {
  note.value = "Making a sandbox…";
  try {
    const response = await fetch(new URL(operation.path.slice(1), `${base.value.replace(/\/*$/, "")}/`), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token.value ? { authorization: `Bearer ${token.value}` } : {}),
      },
      body: JSON.stringify({ seed: true }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || typeof body.sandbox?.token !== "string") {
      note.value = `No sandbox: ${response.status} ${body.message ?? response.statusText}`;
      return;
    }
    token.value = body.sandbox.token;
    store("token", token.value);
    note.value = `Sandbox ${body.sandbox.id} (until ${body.sandbox.expires_at}): its token is filled in.`;
  } catch (error) {
    note.value = `No sandbox: ${error.message}`;
  }
}

/** The inputs last typed into the console of operation `id` in this tab ({ params, body }), if any. */
export function keptInputs(id) {
  try {
    return JSON.parse(sessionStorage.getItem(`workapi.docs.inputs.${id}`) ?? "null") ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps what the console of `operation` holds now, for the tab's life: a console opened again (or after a
 * reload) starts from it. What does not read (JSON being typed) is not kept; the last that did stays.
 */
export function keepInputs(operation, editors) {
  try {
    const inputs = {
      params: editors.params?.control.read(),
      body: editors.body?.read(),
    };
    sessionStorage.setItem(`workapi.docs.inputs.${operation.id}`, JSON.stringify(inputs));
  } catch {}
}

/** The body's two editors, the form and the JSON text, of which one is shown. */
export function bodyEditor(operation, schemas, value = operation.body.example) {
  const form = forms.build(operation.body.schema, {
    schemas,
    path: [],
    required: true,
    value,
  });
  const formBox = element("div", { class: "body-form" }, [form.node]);
  const text = element("textarea", {
    name: "body",
    rows: "14",
    spellcheck: "false",
    hidden: true,
    "aria-label": "Body as JSON",
    "aria-describedby": `${operation.id}-json-errors`,
  });
  // Said as they come (a live region; a list may not take the alert role).
  const errors = element("ul", {
    class: "json-errors",
    id: `${operation.id}-json-errors`,
    "aria-live": "assertive",
  });
  const toggle = element("button", { type: "button", name: "mode" }, ["Edit as JSON"]);
  let json = false;
  toggle.addEventListener("click", () => {
    try {
      if (json) form.write(JSON.parse(text.value));
      else text.value = JSON.stringify(form.read() ?? {}, null, 2);
    } catch (error) {
      errors.replaceChildren(
        element("li", {}, [`${error.path ? `${error.path.join(".")}: ` : ""}${error.message}`]),
      );
      return;
    }
    json = !json;
    formBox.hidden = json;
    text.hidden = !json;
    toggle.textContent = json ? "Edit as a form" : "Edit as JSON";
  });
  const read = () => (json ? (text.value.trim() ? JSON.parse(text.value) : undefined) : form.read());
  const show = (list) => {
    const left = json ? list : forms.showErrors(formBox, list);
    errors.replaceChildren(
      ...left.map((e) => element("li", {}, [`${e.path.join(".") || "body"}: ${e.message}`])),
    );
  };
  const node = element("fieldset", { class: "body" }, [
    element("legend", {}, [`Body (${operation.body.type})`]),
    toggle,
    formBox,
    text,
    errors,
  ]);
  return { node, read, show };
}

/** The answer's part: status, time, the contract check, headers and body. */
export function answerView() {
  const status = element("output", { name: "status" });
  const time = element("output", { name: "time" });
  const check = element("p", { class: "check" });
  // The boxes scroll: they take the focus, so that a keyboard scrolls them too.
  const headers = element("pre", { class: "answer-headers", tabindex: "0", "aria-label": "Answer headers" });
  const body = element("pre", { class: "answer-body", tabindex: "0", "aria-label": "Answer body" });
  const node = element("div", { class: "answer", hidden: true }, [
    element("p", {}, [status, " ", time]),
    check,
    headers,
    body,
  ]);
  copyButton(body, "Copy the answer");
  return { node, status, time, check, headers, body };
}

/** Whether the answer is what the contract says for its status: [ok, what to show]. */
export function contractCheck(operation, status, text, schemas) {
  const key = [String(status), `${String(status)[0]}XX`, "default"].find((k) => k in operation.responses);
  if (key === undefined) return [false, `The contract documents no ${status} answer for ${operation.name}.`];
  const schema = operation.responses[key];
  if (schema === null)
    return [
      text === "",
      text === ""
        ? `Matches the contract: no body for ${key}.`
        : `The contract documents no body for ${key}.`,
    ];
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return [false, `The body is not JSON; the contract documents JSON for ${key}.`];
  }
  const errors = validate(schema, value, schemas);
  if (!errors.length) return [true, `Matches the contract's schema for ${key}.`];
  const list = errors.slice(0, 8).map((e) => `${e.path.join(".") || "body"}: ${e.message}`);
  return [false, `Does not match the contract's schema for ${key}: ${list.join("; ")}`];
}

/** What the console would send now: { params, body } or { errors }, checked against the contract. */
export function request(operation, editors) {
  const errors = { params: [], body: [] };
  let params = {};
  let body;
  try {
    params = editors.params ? editors.params.control.read() : {};
    errors.params = queryProblems(operation, params);
  } catch (error) {
    errors.params = [{ path: error.path ?? [], message: error.message }];
  }
  if (editors.body) {
    try {
      body = editors.body.read();
      if (body !== undefined || operation.body.required) errors.body = bodyProblems(operation, body);
    } catch (error) {
      errors.body = [{ path: error.path ?? [], message: error.message }];
    }
  }
  return { params, body, errors };
}
