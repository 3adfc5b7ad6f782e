// The "Try it" panel of the docs page (inlined by scripts/docs-try-it.mjs): picks an operation (the one the
// page's address names, or any from the list), prefills its example query or JSON body, and sends it with
// fetch to the base URL the reader chose, with the token the reader pasted. The token stays in sessionStorage
// only; nothing is sent anywhere but the chosen base URL.
//
// Served by the reference server (over HTTP at /docs), the page's own origin is the server: the panel calls it
// by default, and the page's Servers box shows it. This script runs before Redoc renders the page: it leaves
// the origin in `window.workapiServerOrigin` for the line before `Redoc.init` to put in the definition.
//
// A script in a block, made strict by the generator: its names stay out of the page's.
{
  const { operations } = JSON.parse(document.getElementById("try-it-data").textContent);
  const stored = (key) => sessionStorage.getItem(`workapi.try-it.${key}`) ?? "";
  const store = (key, value) => sessionStorage.setItem(`workapi.try-it.${key}`, value);
  const served = /^https?:$/.test(location.protocol) && /\/docs\/?$/.test(location.pathname);
  const ownOrigin = served ? location.origin : "";
  if (served) window.workapiServerOrigin = ownOrigin;

  function element(tag, attributes = {}, children = []) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children);
    return node;
  }
  const field = (label, control) => element("label", {}, [element("span", {}, [label]), control]);

  const toggle = element("button", { type: "button", id: "try-it-toggle" }, ["Try it"]);
  const pick = element(
    "select",
    { name: "operation" },
    operations.map((op, index) =>
      element("option", { value: String(index) }, [`${op.name} · ${op.method.toUpperCase()} ${op.path}`]),
    ),
  );
  const base = element("input", { name: "base", placeholder: "http://127.0.0.1:8080" });
  base.value = stored("base") || ownOrigin;
  const token = element("input", { name: "token", type: "password", autocomplete: "off" });
  token.value = stored("token");
  const query = element("input", { name: "query" });
  const body = element("textarea", { name: "body", rows: "12", spellcheck: "false" });
  const note = element("p", { class: "try-it-note" });
  const send = element("button", { type: "submit" }, ["Send"]);
  const status = element("output", { name: "status" });
  const headers = element("pre", { class: "try-it-headers" });
  const answer = element("pre", { class: "try-it-body" });
  const form = element("form", { id: "try-it", hidden: "" }, [
    element("h2", {}, ["Try it"]),
    field("Operation", pick),
    field("Base URL", base),
    field("Token (kept in this tab's session only)", token),
    field("Query", query),
    field("JSON body", body),
    note,
    send,
    status,
    headers,
    answer,
  ]);

  const current = () => operations[Number(pick.value)];
  function show(op) {
    query.value = op.query ?? "";
    body.value = op.body ?? "";
    query.parentElement.hidden = op.method !== "get";
    body.parentElement.hidden = op.method === "get" || op.file === true;
    note.textContent = op.file ? "This operation uploads a file: send it with its curl sample." : "";
    send.disabled = op.file === true;
  }
  // The operation the page's address names (#tag/<tag>/operation/<operationId>), if any.
  function followAddress() {
    const id = decodeURIComponent(location.hash.split("/").pop() ?? "");
    const index = operations.findIndex((op) => op.id === id);
    if (index < 0) return;
    pick.value = String(index);
    show(operations[index]);
  }

  async function request(op) {
    const url = new URL(op.path.slice(1), base.value.replace(/\/*$/, "/"));
    if (op.method === "get" && query.value.trim()) url.search = query.value.trim().replace(/^\?/, "");
    const init = { method: op.method.toUpperCase(), headers: {} };
    if (token.value) init.headers.authorization = `Bearer ${token.value}`;
    if (op.method !== "get" && body.value.trim()) {
      init.headers["content-type"] = "application/json";
      init.body = body.value;
    }
    const response = await fetch(url, init);
    status.value = `${response.status} ${response.statusText}`;
    headers.textContent = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
    const text = await response.text();
    try {
      answer.textContent = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      answer.textContent = text;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    status.value = "Sending…";
    headers.textContent = "";
    answer.textContent = "";
    request(current()).catch((error) => {
      status.value = `Not sent or no answer: ${error.message}`;
    });
  });
  pick.addEventListener("change", () => show(current()));
  base.addEventListener("input", () => store("base", base.value));
  token.addEventListener("input", () => store("token", token.value));
  toggle.addEventListener("click", () => {
    form.hidden = !form.hidden;
    if (!form.hidden) followAddress();
  });
  window.addEventListener("hashchange", followAddress);
  show(current());
  followAddress();
  document.body.append(toggle, form);
}
