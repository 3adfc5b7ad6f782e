// Writes on a SQLite file run on a thread of their own (src/write-thread/). Every HTTP suite already runs its
// SQLite writes there; this file checks what is the thread's own: answers and errors crossing it unchanged,
// concurrent writes, reads that see each write as soon as it is answered, and a close that lets writes under
// way finish.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULTS, sandboxSettingsOf } from "../src/config.js";
import type { Authenticated } from "../src/core/auth.js";
import { issueToken } from "../src/core/auth.js";
import { ApiError, apiError } from "../src/core/errors.js";
import { JsonText } from "../src/core/json-text.js";
import { StoreError } from "../src/store/types.js";
import {
  CallerKeys,
  CallerSender,
  callerOf,
  fromAnswer,
  fromMessage,
  toAnswer,
  toMessage,
  type WriteRequest,
} from "../src/write-thread/messages.js";
import { startWriteThread } from "../src/write-thread/sender.js";
import { startTestServer } from "./harness.js";
import { createPart } from "./record-builders.js";

describe("an answer crossing the write thread", () => {
  const across = (outcome: { value: unknown } | { error: unknown }) =>
    fromAnswer(structuredClone(toAnswer(7, outcome)));

  it("keeps a value, and JSON text as text or bytes", () => {
    expect(across({ value: { work: { id: "w", n: [1, 2] } } })).toEqual({
      value: { work: { id: "w", n: [1, 2] } },
    });
    const text = across({ value: new JsonText('{"a":1}') });
    expect("value" in text && text.value instanceof JsonText && text.value.text).toBe('{"a":1}');
    const bytes = across({ value: new JsonText(Buffer.from('{"b":"é"}')) });
    expect("value" in bytes && bytes.value instanceof JsonText && bytes.value.text).toBe('{"b":"é"}');
  });

  it("keeps a typed error whole: type, message, detail, fields, status and headers", () => {
    const sent = apiError("value_not_permitted", "Why.", {
      field_name: "stage",
      allowed_values: ["a", "b"],
    })
      .withStatus(405)
      .withHeader("allow", "POST");
    const got = across({ error: sent });
    expect("error" in got && got.error).toBeInstanceOf(ApiError);
    const error = (got as { error: ApiError }).error;
    expect([error.status, error.headers, error.body()]).toEqual([405, { allow: "POST" }, sent.body()]);
  });

  it("turns a store error into the typed error a route answers it with, and keeps any other error's name, message and stack", () => {
    const store = across({ error: new StoreError("bad_cursor", "Invalid cursor: stale", "cursor") });
    const typed = (store as { error: ApiError }).error;
    expect(typed).toBeInstanceOf(ApiError);
    expect(typed.body()).toEqual(
      apiError("invalid_field", "Invalid cursor: stale", { field_name: "cursor" }).body(),
    );
    const failure = new TypeError("broken");
    const other = (across({ error: failure }) as { error: Error }).error;
    expect([other.name, other.message, other.stack]).toEqual(["TypeError", "broken", failure.stack]);
  });
});

describe("a write request crossing the write thread", () => {
  const request = (arrived: WriteRequest["arrived"]): WriteRequest => ({
    id: 3,
    name: "works.create",
    caller: { key: 1 },
    facts: { requestId: "r", baseUrl: "b" },
    arrived,
  });

  it("carries a body's own text unparsed (line breaks and spacing kept), and a query string as sent", () => {
    const text = '{ "title": "two\\nlines",\n  "n": 1 }';
    expect(fromMessage(toMessage(request({ json: text })))).toEqual(request({ json: text }));
    expect(fromMessage(toMessage(request({ json: "{" })))).toEqual(request({ json: "{" }));
    expect(fromMessage(toMessage(request({ query: "a=1&b=x,y" })))).toEqual(request({ query: "a=1&b=x,y" }));
    expect(fromMessage(toMessage(request({ value: { a: 1 } })))).toEqual(request({ json: '{"a":1}' }));
  });

  it("carries a form's files as bytes, which arrive as Buffers", () => {
    const sent = toMessage(
      request({ form: { id: "x", file: { filename: "a.txt", data: Buffer.from("hi") } } }),
    );
    const got = fromMessage(structuredClone(sent)).arrived as { form: { file: { data: Buffer } } };
    expect(Buffer.isBuffer(got.form.file.data) && got.form.file.data.toString()).toBe("hi");
  });
});

describe("a caller crossing the write thread", () => {
  const caller = (name: string) => ({ token: { name }, actor: { user: name } }) as unknown as Authenticated;

  it("travels with its first write only, and again once the thread has dropped it", () => {
    const sender = new CallerSender(2);
    const thread = new CallerKeys<Authenticated>(2);
    const [ada, bob, cy] = [caller("ada"), caller("bob"), caller("cy")];
    const sent: Array<string | undefined> = [];
    const cross = (auth: Authenticated) => {
      const message = toMessage({
        id: 0,
        name: "works.create",
        caller: sender.toSend(auth),
        facts: { requestId: "r", baseUrl: "b" },
        arrived: { json: "{}" },
      });
      const request = fromMessage(message);
      sent.push(request.caller.auth && (request.caller.auth.actor.user as unknown as string));
      return callerOf(thread, request.caller);
    };
    // Each write finds its own caller on the thread's side, however it travelled.
    for (const auth of [ada, ada, bob, ada, cy, bob, ada, ada]) expect(cross(auth)).toEqual(auth);
    // Kept two at a time, oldest first dropped: cy's arrival drops ada, then ada's return drops bob.
    expect(sent).toEqual(["ada", undefined, "bob", undefined, "cy", undefined, "ada", undefined]);
  });

  it("travels again under a new key when its credentials were read again", () => {
    const sender = new CallerSender();
    const first = sender.toSend(caller("ada"));
    // Another read of the same token (after a credential changed) is another token record.
    const again = sender.toSend(caller("ada"));
    expect(again.auth).toBeDefined();
    expect(again.key).not.toBe(first.key);
  });

  it("travels again with the next write when the message that carried it was not sent", () => {
    const sender = new CallerSender();
    const ada = caller("ada");
    expect(sender.toSend(ada).auth).toBe(ada);
    sender.notSent(ada);
    expect(sender.toSend(ada).auth).toBe(ada);
    expect(sender.toSend(ada).auth).toBeUndefined();
  });

  it("is a fault when the thread does not hold the key it is sent", () => {
    expect(() => callerOf(new CallerKeys<Authenticated>(), { key: 5 })).toThrow("does not hold caller 5");
  });
});

describe("writes on the write thread", () => {
  it("answers concurrent writes, each visible to reads as soon as it is answered", async () => {
    const server = await startTestServer("sqlite");
    try {
      const part = await createPart(server, "product", "Threaded");
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.call("POST", "/works.create", {
            body: {
              type: "issue",
              title: `Threaded ${i}`,
              applies_to_part: part.id,
              owned_by: [server.admin.id],
            },
          }),
        ),
      );
      expect(created.map((call) => call.status)).toEqual(Array(20).fill(201));
      expect(new Set(created.map((call) => call.body.work.display_id)).size).toBe(20);
      for (const call of created) {
        const read = await server.call("GET", `/works.get?id=${encodeURIComponent(call.body.work.id)}`);
        expect(read.body.work).toEqual(call.body.work);
      }
      // The body crosses as its text and is parsed and checked there, once: its failures are the same.
      const headers = { "content-type": "application/json" };
      const malformed = await server.call("POST", "/tags.create", { raw: '{"name": ', headers });
      expect([malformed.status, malformed.body.type]).toEqual([400, "parse_error"]);
      const invalid = await server.call("POST", "/tags.create", { raw: '{"name": 5}', headers });
      expect([invalid.status, invalid.body.type]).toEqual([400, "unexpected_json_type"]);
      const empty = await server.call("POST", "/tags.create", { raw: "", headers });
      expect([empty.status, empty.body.type]).toEqual([400, "missing_required_field"]);
    } finally {
      await server.close();
    }
  });

  it("finishes the writes under way before it closes, and refuses writes after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "workapi-thread-"));
    const server = await startTestServer("sqlite", { dataDir: dir });
    try {
      const part = await createPart(server, "product", "Closing");
      const { token } = await issueToken(server.store, server.actor, { scopes: server.app.contract.scopes });
      const auth = { token, org: server.org, user: server.admin, actor: server.actor };
      const operation = server.app.contract.operations.find((op) => op.name === "works.create");
      if (!operation) throw new Error("works.create is not in the contract");
      const facts = { requestId: "closing", baseUrl: "http://localhost" };
      const input = (i: number) => ({
        value: { type: "task", title: `Closing ${i}`, applies_to_part: part.id, owned_by: [server.admin.id] },
      });
      const writes = startWriteThread(dir, sandboxSettingsOf(DEFAULTS));
      const runs = Array.from({ length: 10 }, (_, i) => writes.run(operation, auth, facts, input(i)));
      await writes.close();
      // works.create answers its work as JSON text (src/core/json-text.ts).
      const answers = (await Promise.all(runs)).map((answer) =>
        JSON.parse((answer as JsonText).text),
      ) as Array<{
        work: { id: string };
      }>;
      const found = await server.store.findRecords(server.org.id, "work", { limit: 100 });
      expect(found.map((record) => record.id).sort()).toEqual(answers.map((answer) => answer.work.id).sort());
      await expect(writes.run(operation, auth, facts, input(10))).rejects.toThrow("the write thread stopped");
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
