// The page's data (operations, schemas, search index: docs-console-data.mjs writes it into the page as JSON),
// parsed when the console or the search first needs it rather than while the page loads.
let loaded;

export function docsData() {
  loaded ??= JSON.parse(document.getElementById("docs-data").textContent);
  return loaded;
}
