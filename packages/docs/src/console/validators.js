// The entry of validators.js, the file beside the page that holds the request checks the generator compiled
// (src/render/request-validators.mjs). Loaded by a script element when a console first opens (request-check.js),
// it hands them over through one global, as a classic script must: a module or fetch() would not load from a
// page opened as a file.
import bodyValidators from "workapi:body-validators";
import queryValidators from "workapi:query-validators";

globalThis.workapiValidators = { body: bodyValidators, query: queryValidators };
