// The floor the server is measured against: the same reads written by hand. A plain Fastify app over
// better-sqlite3 on the bench's SQLite file that looks the bearer token up with the server's own credentials
// query (its SQL taken from the built server, so the two cannot drift apart), reads the record by id
// (works.get) or the first page of tags (tags.list: the store's filter, order and limit), parses the stored
// documents and answers with JSON.stringify. No logging, no rate limits, no validation, no caches. Its
// answers must be byte-identical to the server's (bench/run.mjs checks once before measuring). Started by
// bench/run.mjs as a child process.
//
//   node bench/by-hand.mjs <sqlite file> <port>
import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import Fastify from "fastify";
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import { credentialsQuery } from "../dist/store/credentials.js";

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("usage: by-hand.mjs <sqlite file> <port>");

// Kysely only prints the credentials query's SQL here, once; every request runs the prepared statement.
const printer = new Kysely({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
const db = new Database(file, { readonly: true });
db.pragma("busy_timeout = 5000");
const credentials = db.prepare(credentialsQuery(printer, "").compile().sql);
// The store's record by id (the oldest of that id, of kind work) and its first page of tags (created_date,
// then seq; the page size the operation defaults to).
const work = db.prepare(
  "select data from records where org_id = ? and kind = 'work' and id = ? order by seq limit 1",
);
const PAGE = 50;
const tags = db
  .prepare(
    "select data from records where org_id = ? and kind = 'tag' order by created_date asc, seq asc limit ?",
  )
  .pluck();

/** The caller's organization id, or undefined when the token is unknown, revoked, expired or orphaned. */
function orgOf(header) {
  const secret = /^bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (!secret) return undefined;
  const row = credentials.get(createHash("sha256").update(secret).digest("hex"));
  if (row?.status !== "active" || row.org_status !== "active" || row.user_id === null) return undefined;
  if (row.expires_at !== null && Date.parse(row.expires_at) <= Date.now()) return undefined;
  return row.org_id;
}

const JSON_TYPE = "application/json; charset=utf-8";
const app = Fastify();
app.get("/works.get", (request, reply) => {
  const org = orgOf(request.headers.authorization);
  if (!org) return reply.code(401).send({});
  const row = work.get(org, request.query.id);
  if (!row) return reply.code(404).send({});
  return reply.type(JSON_TYPE).send(JSON.stringify({ work: JSON.parse(row.data) }));
});
app.get("/tags.list", (request, reply) => {
  const org = orgOf(request.headers.authorization);
  if (!org) return reply.code(401).send({});
  const rows = tags.all(org, PAGE + 1);
  // A second page needs the server's cursor, which this floor does not write: the byte check then fails.
  const page = rows.slice(0, PAGE).map((data) => JSON.parse(data));
  return reply.type(JSON_TYPE).send(JSON.stringify({ tags: page }));
});
await app.listen({ port: Number(port), host: "127.0.0.1" });
for (const signal of ["SIGTERM", "SIGINT"])
  process.once(signal, () => app.close().then(() => process.exit(0)));
