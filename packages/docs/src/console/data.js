// The console's data (operations and schemas, docs-console-data.mjs) and its request checks (the validators
// request-validators.mjs compiles) live in console.js beside the page, not in it: some 900 kB that only a
// reader who opens a console needs, which every reader paid to parse when they were inlined. A script element
// loads it (once) when a console is first opened; a classic script, because neither a module nor fetch() loads
// from a page opened as a file. It hands its contents over through one global.
let loading;

/** Whether console.js is loaded. */
export const loaded = () => globalThis.workapiConsole !== undefined;

/** Loads console.js (once); resolves when its data and checks are here. */
export function load() {
  if (loaded()) return Promise.resolve();
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("console.js", location.href).href;
    script.onload = () => resolve();
    script.onerror = () => {
      // A later "Try it" tries again (the server may have been down).
      loading = undefined;
      script.remove();
      reject(new Error("the console's data (console.js, beside the page) did not load"));
    };
    document.head.append(script);
  });
  return loading;
}

/** The console's data: { operations, schemas, answers }; console.js must be loaded. */
export const docsData = () => globalThis.workapiConsole.data;

/** The request checks: { body, query }, each a validator per operationId; console.js must be loaded. */
export const validators = () => globalThis.workapiConsole.validators;
