// The code samples' copy buttons (part of the docs page's script; copy.js makes them).
import { copyButton } from "./copy.js";

// The samples' buttons are added by the script rather than written in the page: 200 of them, that only a
// page with its script can use. They wait for an idle moment, so that the page is shown first.
const later = globalThis.requestIdleCallback ?? ((work) => setTimeout(work, 1));
later(() => {
  for (const box of document.querySelectorAll("details.sample > pre")) copyButton(box);
});
