// The entry of console.js's script part: the request checks the generator compiled from the contract
// (src/render/request-validators.mjs), handed to the page's script through the global that data.js reads (the
// generator puts the console's data beside them, as JSON).
import bodyValidators from "workapi:body-validators";
import queryValidators from "workapi:query-validators";

globalThis.workapiConsole = {
  ...globalThis.workapiConsole,
  validators: { body: bodyValidators, query: queryValidators },
};
