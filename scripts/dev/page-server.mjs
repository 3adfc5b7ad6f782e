// The HTTP server of `pnpm dev`: the docs page at /docs (the last good one, with ./live.js and its settings
// added), the dev state as Server-Sent Events at /__dev/events (sent again on every change), and every other
// request passed to the reference server, so the page's console, which calls its own origin when served at
// /docs, calls the server running the contract being edited.
import { readFileSync } from "node:fs";
import { createServer, request as forward } from "node:http";

const LIVE = readFileSync(new URL("./live.js", import.meta.url), "utf8");

/** JSON safe inside a script element. */
const scriptJson = (value) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * What the open pages have reached: { reach(step, version), reached(step, version, timeout) }, as
 * pageServer's reached() says; `clients` are the open pages' event streams.
 */
function pageSteps(clients) {
  /** The last version each step was reached with, and who waits for one. */
  const last = { painted: -1 };
  const waiters = new Set();
  const reach = (step, version) => {
    last[step] = Math.max(last[step], version);
    for (const waiter of waiters) if (waiter.step === step && waiter.version <= last[step]) waiter.resolve();
  };
  const reached = (step, version, timeout) => {
    if (clients.size === 0 || last[step] >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        step,
        version,
        resolve: () => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.resolve, timeout);
      waiters.add(waiter);
    });
  };
  return { reach, reached };
}

/**
 * Starts the dev page server on `port`. `page()` answers the current page's HTML, `consoleScript()` (or a
 * promise of it) the console.js beside it (the console's data and checks, which the page loads when a console opens: served here
 * from the same generation as the page, not by the reference server from its package), `state()` the dev state
 * ({ version, ... }), `api` the reference server's URL, `ready()` a promise that holds while it restarts (a call
 * waits for it rather than failing) and `token` its admin token. Answers { url, changed(), reached(),
 * close() }: changed() sends the state to every open page; reached("painted", version, timeout) resolves
 * once an open page has painted `version` of the page after reloading (./live.js tells), at once when no page
 * is open, and after `timeout` ms at the latest. `pnpm dev` holds back the rest of a save's work until then, so that the page, what the author
 * looks at, gets the machine first.
 */
export async function pageServer({ port, page, consoleScript, state, api, ready, token }) {
  const clients = new Set();
  const { reach, reached } = pageSteps(clients);
  const send = (response) => response.write(`event: state\ndata: ${JSON.stringify(state())}\n\n`);
  const server = createServer((request, response) => {
    const path = request.url.split("?")[0];
    if (path === "/" || path === "/docs/") {
      response.writeHead(302, { location: "/docs" }).end();
    } else if (path === "/docs") {
      const config = `<script type="application/json" id="workapi-dev-config">${scriptJson({ version: state().version, token })}</script>`;
      const html = page().replace(
        /<\/body>\s*<\/html>\s*$/,
        `${config}\n<script>${LIVE}</script>\n</body>\n</html>\n`,
      );
      response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(html);
    } else if (path === "/console.js" || path === "/docs/console.js") {
      Promise.resolve(consoleScript()).then((script) => {
        response.writeHead(200, {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "no-store",
        });
        response.end(script);
      });
    } else if (path === "/__dev/events") {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      clients.add(response);
      send(response);
      request.on("close", () => clients.delete(response));
    } else if (path === "/__dev/shown" && request.method === "POST") {
      reach("painted", Number(new URL(request.url, "http://dev").searchParams.get("version")));
      response.writeHead(204).end();
    } else if (path === "/__dev/state") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(state()));
    } else {
      ready().then(() => pass(request, response));
    }
  });
  /** Passes a request to the reference server, and its answer back. */
  const pass = (request, response) => {
    const target = new URL(request.url, api());
    const outgoing = forward(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    outgoing.on("error", (error) => {
      response.writeHead(502, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "dev_server_unavailable", message: error.message }));
    });
    request.pipe(outgoing);
  };
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    changed: () => {
      for (const client of clients) send(client);
    },
    reached,
    close: () => {
      for (const client of clients) client.end();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
