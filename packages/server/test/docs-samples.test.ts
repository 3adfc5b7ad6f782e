// The curl samples the docs show for every operation (x-codeSamples in the bundled contract) run as shown
// against a seeded server and answer the operation's documented success status. The text run is the text
// shown; only the shell variables the docs page documents are set: $WORKAPI_URL, $WORKAPI_TOKEN, $FILE and
// the record ids ($ISSUE_ID, $TAG_ID...), each to a record of the seeded server, or, for an operation that
// uses its record up (a delete, a transition), to a record made for that run. curl's own settings (silent,
// print the status) come from a curlrc in $CURL_HOME, so they are not part of the sample.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { HTTP_METHODS, loadSpec } from "@workapi/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeSession } from "../src/operations/observability.js";
import { seed } from "../src/seed/index.js";
import { databases, startTestServer, type TestServer } from "./harness.js";

const run = promisify(execFile);

interface Sample {
  lang: string;
  label: string;
  source: string;
}
interface Case {
  operationId: string;
  title: string;
  name: string;
  method: string;
  source: string;
  status: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the examples are read field by field
const spec: any = loadSpec();
const cases: Case[] = [];
for (const [path, item] of Object.entries(spec.paths) as Array<[string, Record<string, unknown>]>) {
  for (const method of HTTP_METHODS) {
    const operation = item[method] as
      | { operationId: string; "x-interface-name": string; responses: object; "x-codeSamples"?: Sample[] }
      | undefined;
    if (!operation) continue;
    const curl = operation["x-codeSamples"]?.find((sample) => sample.label === "curl");
    const success = Object.keys(operation.responses).filter((status) => /^2\d\d$/.test(status));
    cases.push({
      operationId: operation.operationId,
      title: `${method.toUpperCase()} ${path} (${operation.operationId})`,
      name: operation["x-interface-name"],
      method,
      source: curl?.source ?? "",
      status: Number(success[0]),
    });
  }
}

describe("the curl samples of the docs", () => {
  it("are there for every operation, each with one documented success status", () => {
    expect(cases.length).toBeGreaterThan(20);
    expect(cases.filter((c) => !c.source.startsWith("curl ")).map((c) => c.title)).toEqual([]);
    expect(cases.filter((c) => !(c.status >= 200 && c.status < 300)).map((c) => c.title)).toEqual([]);
  });
});

describe.each(databases)("the curl samples run against a seeded server on %s", (database) => {
  let server: TestServer;
  let home: string;
  const found = new Map<string, string[]>();

  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  const post = async (path: string, body: unknown): Promise<any> => {
    const answer = await server.call("POST", path, { body });
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const ids = async (path: string, key: string, body: Record<string, unknown> = {}) =>
    ((await post(path, body))[key] as Array<{ id: string }>).map((item) => item.id);
  /** The example body the contract gives an operation: fresh records are made the way the docs show. */
  const example = (path: string) =>
    spec.paths[path].post.requestBody.content["application/json"].example as Record<string, unknown>;
  const newArtifact = async () =>
    (await post("/artifacts.prepare", example("/artifacts.prepare"))).id as string;
  const upload = async (id: string) => {
    const form = new FormData();
    form.set("id", id);
    form.set("file", new Blob(["a version of the file"]), "notes.txt");
    const answer = await fetch(`${server.url}/artifacts.upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminToken}` },
      body: form,
    });
    if (answer.status !== 201) throw new Error(`artifacts.upload: ${answer.status} ${await answer.text()}`);
  };
  const newWork = async (type: string) => {
    const [part] = await ids("/parts.list", "parts", { type: ["product"] });
    const body = {
      type,
      title: "Made for a docs sample",
      applies_to_part: part,
      owned_by: [server.admin.id],
    };
    return (await post("/works.create", body)).work.id as string;
  };

  // Where each kind of variable finds records of the seeded server: `$NAME` is the first, `$NAME_2` the
  // second.
  const finders: Record<string, () => Promise<string[]>> = {
    ACCOUNT_ID: () => ids("/accounts.list", "accounts"),
    ARTICLE_ID: () => ids("/articles.list", "articles"),
    ARTIFACT_ID: async () => [await newArtifact()],
    CAPABILITY_ID: () => ids("/parts.list", "parts", { type: ["capability"] }),
    CODE_CHANGE_ID: () => ids("/code-changes.list", "code_changes"),
    CONVERSATION_ID: () => ids("/conversations.list", "conversations"),
    CUSTOM_STAGE_ID: () => ids("/stages.custom.list", "result"),
    DEV_USER_ID: () => ids("/dev-users.list", "dev_users"),
    ENHANCEMENT_ID: () => ids("/parts.list", "parts", { type: ["enhancement"] }),
    FEATURE_ID: () => ids("/parts.list", "parts", { type: ["feature"] }),
    ISSUE_ID: () => ids("/works.list", "works", { type: ["issue"] }),
    ORG_SCHEDULE_FRAGMENT_ID: async () => [
      (await post("/org-schedule-fragments.create", example("/org-schedule-fragments.create")))
        .org_schedule_fragment.id,
    ],
    PRODUCT_ID: () => ids("/parts.list", "parts", { type: ["product"] }),
    REV_ORG_ID: () => ids("/rev-orgs.list", "rev_orgs"),
    SLA_ID: () => ids("/slas.list", "slas"),
    STAGE_DIAGRAM_ID: () => ids("/stage-diagrams.list", "result"),
    TAG_ID: () => ids("/tags.list", "tags"),
    TICKET_ID: () => ids("/works.list", "works", { type: ["ticket"] }),
    VISTA_ID: () => ids("/vistas.list", "vistas"),
  };

  // Operations whose sample needs records made for it: ones it uses up (a delete, a draft to update, an
  // artifact to attach) or in a relation the seed does not have. Each gives the variables it sets.
  const prepare: Record<string, () => Promise<Record<string, string>>> = {
    "articles.get": async () => {
      // `id` with `parent_article_id` is a content block of that article.
      const { articles } = await post("/articles.list", {});
      const child = articles.find((article: { parent?: unknown }) => article.parent);
      if (!child) throw new Error("the seed has no article with a parent");
      const parent = typeof child.parent === "string" ? child.parent : child.parent.id;
      return { ARTICLE_ID: child.id, ARTICLE_ID_2: parent };
    },
    "artifacts.get": async () => {
      // The example asks for version 2: an artifact uploaded twice.
      const id = await newArtifact();
      await upload(id);
      await upload(id);
      return { ARTIFACT_ID: id };
    },
    "artifacts.upload": async () => ({ ARTIFACT_ID: await newArtifact() }),
    "auth-tokens.delete": async () => {
      const before = new Set(await ids("/auth-tokens.list", "tokens"));
      await post("/auth-tokens.create", example("/auth-tokens.create"));
      const added = (await ids("/auth-tokens.list", "tokens")).filter((id) => !before.has(id));
      if (added.length !== 1) throw new Error(`auth-tokens.create added ${added.length} tokens`);
      return { AUTH_TOKEN_ID: added[0] as string };
    },
    "conversations.create": async () => {
      // The example puts the conversation in the stage `queued`.
      const { result } = await post("/stages.custom.list", {});
      if (!result.some((stage: { name: string }) => stage.name === "queued")) {
        await post("/stages.custom.create", { ...example("/stages.custom.create"), name: "queued" });
      }
      return {};
    },
    "slas.update": async () => {
      // Only a draft SLA can be updated: a new one, made from the slas.create example.
      return { SLA_ID: (await post("/slas.create", example("/slas.create"))).sla.id };
    },
    "timeline-entries.create": async () => ({ ARTIFACT_ID: await newArtifact() }),
    "timeline-entries.get": async () => {
      // The example asks for the entry with its external_ref on the ticket's timeline.
      const ticket = await newWork("ticket");
      const external_ref = example("/timeline-entries.create").external_ref;
      await post("/timeline-entries.create", {
        type: "timeline_comment",
        object: ticket,
        body: "Hi",
        external_ref,
      });
      return { TICKET_ID: ticket };
    },
    "works.delete": async () => ({ ISSUE_ID: await newWork("issue") }),
    "works.update": async () => ({ ARTIFACT_ID: await newArtifact() }),
  };

  const session = () => {
    // Recordings reach the server from the platform's SDKs, not through the interface: the test stores the
    // one the example asks for, as the seed stores its own.
    const item = spec.paths["/observability.sessions.data.get"].get;
    const query = Object.fromEntries(
      item.parameters.map((parameter: { name: string; example?: unknown }) => [
        parameter.name,
        parameter.example,
      ]),
    );
    const answer = item.responses["200"].content["application/json"].example;
    return { ...answer, version_key: query.version_key };
  };

  beforeAll(async () => {
    // The samples are curl commands: without curl they cannot be checked, and that is a failure, not a skip.
    await run("curl", ["--version"]).catch(() => {
      throw new Error("the docs' curl samples need curl on the PATH (Debian: apt-get install curl)");
    });
    server = await startTestServer(database);
    await seed(server.store, server.org, server.admin, { works: 30 });
    await storeSession(server.store, server.actor, session());
    home = mkdtempSync(join(tmpdir(), "workapi-curl-"));
    writeFileSync(join(home, ".curlrc"), 'silent\nshow-error\nwrite-out = "\\n%{http_code}"\n');
    writeFileSync(join(home, "notes.txt"), "Notes of the docs sample run.\n");
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it.each(cases.map((c) => [c.title, c] as const))(
    "%s",
    async (_title, sample) => {
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        CURL_HOME: home,
        WORKAPI_URL: server.url,
        WORKAPI_TOKEN: server.adminToken,
        FILE: join(home, "notes.txt"),
      };
      const made = (await prepare[sample.name]?.()) ?? {};
      for (const [, variable, kind, n] of sample.source.matchAll(/\$(([A-Z_]+_ID)(?:_(\d+))?)\b/g)) {
        const name = variable as string;
        if (made[name] !== undefined) {
          env[name] = made[name];
          continue;
        }
        const finder = finders[kind as string];
        if (!finder) throw new Error(`${sample.title}: nothing finds a record for $${name}`);
        if (!found.has(kind as string)) found.set(kind as string, await finder());
        const value = found.get(kind as string)?.[Number(n ?? 1) - 1];
        if (!value) throw new Error(`${sample.title}: the seeded server has no record for $${name}`);
        env[name] = value;
      }
      const { stdout } = await run("bash", ["-c", sample.source], { env, cwd: home });
      const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
      const body = stdout.slice(0, stdout.lastIndexOf("\n"));
      expect(`${status} ${body}`.slice(0, 600)).toBe(`${sample.status} ${body}`.slice(0, 600));
    },
    30_000,
  );
});
