// The script `pnpm dev` adds to the docs page it serves (scripts/dev/page-server.mjs): it listens to the dev
// server's events; when the page was regenerated it reloads it, keeping the reader where they were (the
// section in view, at the same distance from the top), and it shows the dev panel: what broke the contract
// (file, line, message), Redocly's lint problems and the contract review's findings, each linked to its
// operation on the page, or to its schema when it is in a schema's file. It also hands the console the dev server's token, so "Try it" works at once.
// A block, not a function: its names stay out of the page's global scope all the same.
{
  const KEY = "workapi.dev.place";
  const config = JSON.parse(document.getElementById("workapi-dev-config").textContent);
  if (!sessionStorage.getItem("workapi.docs.token"))
    sessionStorage.setItem("workapi.docs.token", config.token);

  /** The section at the top of the view, and how far below the view's top it starts. */
  const place = () => {
    const sections = document.querySelectorAll("main [id]");
    let best;
    for (const section of sections) {
      const top = section.getBoundingClientRect().top;
      if (top <= 80) best = { id: section.id, top };
      else break;
    }
    return best ?? { id: "", top: 0, y: scrollY };
  };
  const restore = () => {
    const saved = sessionStorage.getItem(KEY);
    if (!saved) return;
    sessionStorage.removeItem(KEY);
    const { id, top, y } = JSON.parse(saved);
    const target = id && document.getElementById(id);
    if (target) scrollTo(0, scrollY + target.getBoundingClientRect().top - top);
    else scrollTo(0, y ?? 0);
  };
  restore();
  // Tells the dev server once this version of the page has painted (a frame, then a task after it): it holds
  // back its other work (the reference server's restart, the lint) until then.
  requestAnimationFrame(() =>
    setTimeout(() => fetch(`/__dev/shown?version=${config.version}`, { method: "POST" }).catch(() => {})),
  );

  // An operation's part of the page has the id `tag/<tag>/operation/<operationId>` (@workapi/docs'
  // operationAnchor): found by its ending, as the page carries no table of them.
  const anchorOf = (operationId) =>
    document.querySelector(`main [id$="/operation/${CSS.escape(operationId)}"]`)?.id;
  const panel = document.createElement("aside");
  panel.id = "workapi-dev";
  panel.setAttribute("aria-label", "pnpm dev");
  panel.style.cssText =
    "position:fixed;right:8px;bottom:8px;max-width:42em;max-height:45vh;overflow:auto;z-index:1000;" +
    "background:#fff;color:#111;border:1px solid #888;border-radius:6px;padding:6px 10px;font:13px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px #0003";
  document.body.append(panel);

  const text = (tag, content, attributes = {}) => {
    const node = document.createElement(tag);
    node.textContent = content;
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    return node;
  };
  const where = (item) => (item.file ? `${item.file}${item.line ? `:${item.line}` : ""}` : "");
  const row = (item, kind) => {
    const li = text("li", "", { class: `dev-${kind} dev-${item.level ?? "error"}` });
    li.append(text("strong", `${item.level ?? "error"} `));
    if (item.rule) li.append(text("code", `${item.rule} `));
    li.append(`${item.message} `);
    if (where(item)) li.append(text("small", where(item)));
    for (const id of item.operations ?? (item.operationId ? [item.operationId] : [])) {
      li.append(" ");
      const anchor = anchorOf(id);
      li.append(text("a", id, { href: anchor ? `#${anchor}` : "#", class: "dev-operation" }));
    }
    // A problem in a named schema's file (no operation's): linked to the schema's part of the page
    // (@workapi/docs' schema anchor `schema/<Name>`); its file and line are shown above.
    if (item.schema && document.getElementById(`schema/${item.schema}`)) {
      li.append(" ");
      li.append(text("a", item.schema, { href: `#schema/${item.schema}`, class: "dev-schema" }));
    }
    return li;
  };
  const section = (title, items, kind) => {
    const box = text("section", "", { class: `dev-${kind}s` });
    box.append(text("h2", `${title} (${items.length})`, { style: "font-size:13px;margin:4px 0" }));
    const list = text("ul", "", { style: "margin:0;padding-left:1.2em" });
    for (const item of items) list.append(row(item, kind));
    box.append(list);
    return box;
  };
  const show = (state) => {
    panel.replaceChildren();
    panel.dataset.version = String(state.version);
    if (state.broken)
      panel.append(
        section("The contract does not build; the page shows the last good one", state.broken, "broken"),
      );
    panel.append(section("Lint", state.lint ?? [], "lint"));
    panel.append(section(`Review against ${state.base}`, state.review ?? [], "finding"));
    if (state.server) panel.append(text("p", state.server, { class: "dev-server", style: "margin:4px 0" }));
  };

  const events = new EventSource("/__dev/events");
  events.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    if (state.version !== config.version) {
      sessionStorage.setItem(KEY, JSON.stringify(place()));
      location.reload();
      return;
    }
    show(state);
  });
}
