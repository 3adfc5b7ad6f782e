// console.js is a classic script the docs page loads beside itself (<script src>) when a console first opens: it
// exports nothing and sets `globalThis.workapiConsole`, the console's data and request checks. Declared so that
// a bundler or a TypeScript project that names `@workapi/docs/console.js` (to copy or serve it) resolves types.
declare global {
  var workapiConsole: { data: unknown } | undefined;
}

export {};
