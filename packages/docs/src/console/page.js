// The page's one script, bundled by esbuild into the page (src/render/page-script.mjs) as one IIFE: the
// console opened by each operation's "Try it" button, the search, the sidebar that follows the address (and opens
// what a deep link names), the copy buttons and the theme switch.
// Each module registers its own listeners when it runs, so importing them is all this does.
import "./theme.js";
import "./console-open.js";
import "./copy-samples.js";
import "./search.js";
import "./nav.js";
