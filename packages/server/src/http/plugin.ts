// How the plugins of src/http/ reach the whole application. Fastify encapsulates what a registered plugin
// adds (content-type parsers, hooks, the error handler) to that plugin's own context; the plugins here set up
// the one application every route shares, so they opt out of encapsulation with the `skip-override` marker that
// Fastify documents for this purpose (the same marker the fastify-plugin package sets; written here rather than
// adding a dependency for one property).
import type { FastifyPluginAsync, FastifyPluginOptions } from "fastify";

export function shared<Options extends FastifyPluginOptions = FastifyPluginOptions>(
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  Object.defineProperty(plugin, Symbol.for("skip-override"), { value: true });
  return plugin;
}
