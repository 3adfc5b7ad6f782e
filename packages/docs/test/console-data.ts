// The console's data as the page gets it: console.js (beside the page) run in a context of its own, whose
// global it hands the data to.
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { consolePath } from "../index.js";

export function consoleData<T>(): T {
  const context: { workapiConsole?: { data: T } } = {};
  runInNewContext(readFileSync(consolePath, "utf8"), context);
  if (!context.workapiConsole) throw new Error("console.js handed over no data");
  return context.workapiConsole.data;
}
