// The sidebar follows the page's address (part of the docs page's script): the entry of the part the address
// names is marked as the current one and scrolled into the sidebar's view. A deep link (an operation, a schema,
// any field: each field's name links to itself) opens the closed parts it lies in and scrolls it into view.
function reveal(hash) {
  const target = hash && document.getElementById(hash);
  if (!target) return;
  let closed = false;
  for (let node = target.parentElement; node; node = node.parentElement) {
    if (node.tagName === "DETAILS" && !node.open) {
      node.open = true;
      closed = true;
    }
  }
  // The browser scrolled to it already unless it lay in a closed part.
  if (closed) target.scrollIntoView({ block: "start" });
}

function follow() {
  for (const link of document.querySelectorAll("#nav a[aria-current]")) link.removeAttribute("aria-current");
  const hash = decodeURIComponent(location.hash.slice(1));
  reveal(hash);
  // Only operations, tags and the introduction's sections have entries; other addresses mark none.
  const current = [...document.querySelectorAll("#nav a")].find(
    (link) => decodeURIComponent(link.hash.slice(1)) === hash,
  );
  if (!current) return;
  current.setAttribute("aria-current", "location");
  current.scrollIntoView({ block: "nearest" });
}
window.addEventListener("hashchange", follow);
// After the first frame: marking the sidebar lays the whole page out, which would hold up its first paint.
requestAnimationFrame(follow);
