// The sidebar follows the page's address (part of the docs page's script): the entry of the part the address
// names is marked as the current one and scrolled into the sidebar's view.
function follow() {
  for (const link of document.querySelectorAll("#nav a[aria-current]")) link.removeAttribute("aria-current");
  const hash = decodeURIComponent(location.hash.slice(1));
  // Only operations, tags and the introduction's sections have entries; other addresses mark none.
  const current = [...document.querySelectorAll("#nav a")].find(
    (link) => decodeURIComponent(link.hash.slice(1)) === hash,
  );
  if (!current) return;
  current.setAttribute("aria-current", "location");
  current.scrollIntoView({ block: "nearest" });
}
window.addEventListener("hashchange", follow);
follow();
