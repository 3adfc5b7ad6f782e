// The theme switch (part of the docs page's script): the page follows the system's light or dark scheme
// (prefers-color-scheme, in page.css) until the reader presses the switch; the choice is kept (localStorage,
// so every visit and tab) and set on the root element, which page.css reads.
const KEY = "workapi.docs.theme";
const root = document.documentElement;
const button = document.querySelector("button.theme");

function remembered() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    // Storage may be refused (a file page in some browsers, private modes): the switch still works this visit.
    return null;
  }
}

function apply(theme) {
  if (theme === "dark" || theme === "light") root.dataset.theme = theme;
  const dark = theme ? theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  button?.setAttribute("aria-pressed", String(dark));
}

if (button) {
  apply(remembered());
  button.hidden = false;
  button.addEventListener("click", () => {
    const theme = button.getAttribute("aria-pressed") === "true" ? "light" : "dark";
    apply(theme);
    try {
      localStorage.setItem(KEY, theme);
    } catch {}
  });
}
