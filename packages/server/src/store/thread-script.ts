// Where the scripts of the server's threads (the write thread, the checkpoint thread) are: dist/<name>.js of
// this package, whichever file asks (the bundled command, tsc's modules, or the sources under test, which
// build first).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function threadScript(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("the server package's directory was not found");
    dir = parent;
  }
  const script = join(dir, "dist", `${name}.js`);
  if (!existsSync(script)) throw new Error(`${script} is missing: build the server first`);
  return script;
}
