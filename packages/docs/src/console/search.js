// The page's search (part of the docs page's script): over an index of the page's own HTML (search-index.js:
// operations, parameters, schema fields, error types, schemas, with their description text), offline. Every word typed must match an entry; a match in the name counts most (whole
// name, then its start, then anywhere in it), then in where it lives, then in its text. Arrow keys move
// through the results, Enter opens one, Escape closes the list, `/` anywhere puts the cursor in the box.
import { element } from "./form.js";
import { searchIndex } from "./search-index.js";

const input = document.getElementById("search");
const list = document.getElementById("search-results");
const LIMIT = 20;
const KIND_WEIGHT = { operation: 6, error: 5, parameter: 3, field: 2, schema: 4 };
let results = [];
let active = -1;

function score(entry, words) {
  const [kind, label, , where, text] = entry;
  const name = label.toLowerCase();
  const place = where.toLowerCase();
  const prose = text.toLowerCase();
  let total = KIND_WEIGHT[kind] ?? 0;
  for (const word of words) {
    if (name === word) total += 100;
    else if (name.startsWith(word)) total += 60;
    else if (name.includes(word)) total += 40;
    else if (place.includes(word)) total += 15;
    else if (prose.includes(word)) total += 5;
    else return 0;
  }
  return total;
}

function rank(query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const scored = [];
  for (const entry of searchIndex()) {
    const points = score(entry, words);
    if (points > 0) scored.push([points, entry]);
  }
  scored.sort((a, b) => b[0] - a[0] || a[1][1].length - b[1][1].length);
  return scored.slice(0, LIMIT).map(([, entry]) => entry);
}

function paint() {
  list.replaceChildren(
    ...results.map(([kind, label, anchor, where, text], index) => {
      const item = element(
        "li",
        {
          role: "option",
          id: `search-${index}`,
          "aria-selected": String(index === active),
          "data-anchor": anchor,
        },
        [
          element("span", { class: `kind ${kind}` }, [kind]),
          " ",
          element("code", {}, [label]),
          element("span", { class: "where" }, [` ${where}`]),
          text ? element("span", { class: "text" }, [text]) : "",
        ],
      );
      item.addEventListener("mousedown", (event) => {
        event.preventDefault();
        go(index);
      });
      return item;
    }),
  );
  // Said as an option that cannot be chosen: a listbox holds options only.
  if (!results.length && input.value.trim())
    list.append(
      element("li", { class: "none", role: "option", "aria-disabled": "true", "aria-selected": "false" }, [
        "Nothing found",
      ]),
    );
  list.hidden = !input.value.trim();
  input.setAttribute("aria-expanded", String(!list.hidden));
  if (active >= 0) input.setAttribute("aria-activedescendant", `search-${active}`);
  else input.removeAttribute("aria-activedescendant");
  list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
}

function go(index) {
  const entry = results[index];
  if (!entry) return;
  list.hidden = true;
  input.setAttribute("aria-expanded", "false");
  location.hash = entry[2];
  const target = document.getElementById(entry[2]);
  target?.scrollIntoView({ block: "start" });
  // The keyboard goes where the reader went: the next Tab reaches what is in that part (its "Try it").
  if (target) {
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }
}

input.addEventListener("input", () => {
  results = rank(input.value);
  active = results.length ? 0 : -1;
  paint();
});
input.addEventListener("keydown", (event) => {
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    if (!results.length) return;
    active = (active + (event.key === "ArrowDown" ? 1 : results.length - 1)) % results.length;
    paint();
  } else if (event.key === "Enter") {
    event.preventDefault();
    go(active);
  } else if (event.key === "Escape") {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  }
});
input.addEventListener("focus", () => {
  if (input.value.trim()) paint();
});
input.addEventListener("blur", () => {
  list.hidden = true;
});
document.addEventListener("keydown", (event) => {
  const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? "");
  if (event.key === "/" && !typing) {
    event.preventDefault();
    input.focus();
  }
});
