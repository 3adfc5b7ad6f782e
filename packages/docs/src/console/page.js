// The page's one script, bundled by esbuild into the page (src/render/page-script.mjs) as one IIFE: the
// console opened by each operation's "Try it" button, the search, and the sidebar that follows the address.
// Each module registers its own listeners when it runs, so importing them is all this does.
import "./console-open.js";
import "./search.js";
import "./nav.js";
