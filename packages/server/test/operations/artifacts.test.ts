// artifacts.prepare / upload / get / list through real HTTP: the prepare-then-upload flow with a real
// multipart body, versions (upload twice, the latest and version 1, an unknown version), the form's typed
// errors, the body limit (413), content types, read access to the record a file is attached to, scopes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databases, startTestServer, type TestServer } from "../harness.js";

type Upload = { name: string; type?: string; content: string };

async function upload(
  server: TestServer,
  fields: Array<[string, string]>,
  file?: Upload,
  token: string = server.adminToken,
) {
  const form = new FormData();
  for (const [key, value] of fields) form.append(key, value);
  if (file) {
    form.append("file", new Blob([file.content], file.type ? { type: file.type } : {}), file.name);
  }
  const response = await fetch(`${server.url}/artifacts.upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
  return { status: response.status, body: (await response.json()) as any };
}

describe.each(databases)("artifacts on %s", (database) => {
  let server: TestServer;

  const prepare = async (fileName: string, fileType?: string) => {
    const res = await server.post("/artifacts.prepare", {
      file_name: fileName,
      ...(fileType ? { file_type: fileType } : {}),
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; url: string; form_data: Array<{ key: string; value: string }> };
  };
  const formOf = (prepared: { form_data: Array<{ key: string; value: string }> }) =>
    prepared.form_data.map(({ key, value }) => [key, value] as [string, string]);

  beforeAll(async () => {
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server.close();
  });

  describe("prepare and upload", () => {
    describe("artifacts.prepare", () => {
      it("prepares an upload to this server's /artifacts.upload with the form fields to send", async () => {
        const prepared = await prepare("screenshot.png", "image/png");
        expect(prepared.id).toMatch(/:artifact\/\d+$/);
        expect(prepared.url).toBe(`${server.url}/artifacts.upload`);
        expect(prepared.form_data).toEqual([
          { key: "id", value: prepared.id },
          { key: "file_name", value: "screenshot.png" },
          { key: "file_type", value: "image/png" },
        ]);
        // Nothing is uploaded yet: the artifact is answered with its prepared name and type, without a version.
        const before = await server.post("/artifacts.get", { id: prepared.id });
        expect(before.status).toBe(200);
        expect(before.body.artifact).toMatchObject({
          id: prepared.id,
          file: { name: "screenshot.png", type: "image/png" },
        });
        expect(before.body).not.toHaveProperty("version");
        // A named version of an artifact without uploads is still unknown.
        const named = await server.post("/artifacts.get", { id: prepared.id, version: "1" });
        expect(named.status).toBe(404);
        expect(named.body.type).toBe("not_found");
      });
    });

    describe("artifacts.upload", () => {
      it("stores each upload as a new version, and gets the latest or a named one", async () => {
        const prepared = await prepare("notes.txt", "text/plain");
        const first = await upload(server, formOf(prepared), { name: "local.txt", content: "first draft" });
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        expect(first.body.artifact).toMatchObject({
          id: prepared.id,
          file: { name: "notes.txt", type: "text/plain", size: 11 },
          object_version: 2,
        });
        expect(first.body.artifact.display_id).toMatch(/^ARTIFACT-\d+$/);

        const second = await upload(
          server,
          [
            ["id", prepared.id],
            ["file_name", "notes-v2.txt"],
          ],
          {
            name: "local.txt",
            content: "second, longer draft",
          },
        );
        expect(second.status).toBe(201);
        expect(second.body.artifact.file).toEqual({ name: "notes-v2.txt", type: "text/plain", size: 20 });

        const latest = await server.post("/artifacts.get", { id: prepared.id });
        expect(latest.status).toBe(200);
        expect(latest.body.artifact).toEqual(second.body.artifact);
        expect(latest.body.version).toEqual({
          version: "2",
          timestamp: second.body.artifact.modified_date,
          modified_by: expect.objectContaining({ id: server.admin.id }),
        });
        const v1 = await server.call("GET", `/artifacts.get?id=${encodeURIComponent(prepared.id)}&version=1`);
        expect(v1.status).toBe(200);
        expect(v1.body.version).toMatchObject({ version: "1", timestamp: first.body.artifact.modified_date });
        const unknown = await server.post("/artifacts.get", { id: prepared.id, version: "3" });
        expect(unknown.status).toBe(404);
        expect(unknown.body.type).toBe("not_found");

        // The bytes are kept in the database, never in an answer.
        for (const answer of [first.body, second.body, latest.body, v1.body]) {
          expect(JSON.stringify(answer)).not.toContain(Buffer.from("first draft").toString("base64"));
          expect(JSON.stringify(answer)).not.toContain("content");
        }
        const versions = await server.store.findRecords<{ version: string; content: string }>(
          server.org.id,
          "artifact_version",
          { filter: { op: "eq", path: "parent_id", value: prepared.id }, limit: 10 },
        );
        expect(
          versions.map((v) => [v.data.version, Buffer.from(v.data.content, "base64").toString()]),
        ).toEqual([
          ["1", "first draft"],
          ["2", "second, longer draft"],
        ]);
      });

      it("takes the part's media type when none was given, and the upload's name over the prepared one", async () => {
        const prepared = await prepare("data.bin");
        expect(prepared.form_data.map((pair) => pair.key)).toEqual(["id", "file_name"]);
        const res = await upload(server, [["id", prepared.id]], {
          name: "data.csv",
          type: "text/csv",
          content: "a,b\n1,2\n",
        });
        expect(res.body.artifact.file).toEqual({ name: "data.bin", type: "text/csv", size: 8 });
        const renamed = await upload(
          server,
          [
            ["id", prepared.id],
            ["file_type", "application/json"],
          ],
          {
            name: "x.json",
            content: "{}",
          },
        );
        expect(renamed.body.artifact.file).toEqual({ name: "data.bin", type: "application/json", size: 2 });
      });

      it("answers the form's mistakes with typed errors", async () => {
        const prepared = await prepare("a.txt");
        const noId = await upload(server, [], { name: "a.txt", content: "x" });
        expect(noId.status).toBe(400);
        expect(noId.body).toMatchObject({ type: "missing_required_field", field_name: "id" });
        const noFile = await upload(server, [["id", prepared.id]]);
        expect(noFile.body).toMatchObject({ type: "missing_required_field", field_name: "file" });
        const textFile = await upload(server, [
          ["id", prepared.id],
          ["file", "not a file part"],
        ]);
        expect(textFile.body).toMatchObject({ type: "invalid_field", field_name: "file" });
        const unknown = await upload(
          server,
          [
            ["id", prepared.id],
            ["colour", "red"],
          ],
          { name: "a", content: "x" },
        );
        expect(unknown.body).toMatchObject({ type: "invalid_field", field_name: "colour" });
        const longName = await upload(
          server,
          [
            ["id", prepared.id],
            ["file_name", "n".repeat(256)],
          ],
          {
            name: "a",
            content: "x",
          },
        );
        expect(longName.body).toMatchObject({ type: "value_not_permitted", field_name: "file_name" });
        const twice = await upload(
          server,
          [
            ["id", prepared.id],
            ["id", prepared.id],
          ],
          { name: "a", content: "x" },
        );
        expect(twice.body).toMatchObject({ type: "invalid_field", field_name: "id" });
        const missing = await upload(server, [["id", "ARTIFACT-99999"]], { name: "a", content: "x" });
        expect(missing.status).toBe(404);
        expect(missing.body.type).toBe("not_found");
        // None of these stored a version.
        const after = await server.post("/artifacts.get", { id: prepared.id });
        expect(after.status).toBe(200);
        expect(after.body).not.toHaveProperty("version");
      });

      it("takes only multipart bodies, and only where the contract says so", async () => {
        const prepared = await prepare("b.txt");
        const json = await server.post("/artifacts.upload", { id: prepared.id });
        expect(json.status).toBe(400);
        expect(json.body.type).toBe("invalid_content_type");
        const form = new FormData();
        form.append("limit", "5");
        const elsewhere = await fetch(`${server.url}/tags.list`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.adminToken}` },
          body: form,
        });
        expect(elsewhere.status).toBe(400);
        expect(((await elsewhere.json()) as { type: string }).type).toBe("invalid_content_type");
      });

      it("needs artifact:write or artifact:all to prepare and upload", async () => {
        for (const scope of ["artifact:write", "artifact:all"]) {
          const token = await server.token([scope]);
          const prepared = await server.post("/artifacts.prepare", { file_name: "s.txt" }, token);
          expect(prepared.status, scope).toBe(201);
          const res = await upload(
            server,
            [["id", prepared.body.id]],
            { name: "s.txt", content: "s" },
            token,
          );
          expect(res.status, scope).toBe(201);
        }
        const readOnly = await server.token(["artifact:read"]);
        expect((await server.post("/artifacts.prepare", { file_name: "s.txt" }, readOnly)).status).toBe(403);
        const prepared = await prepare("t.txt");
        const denied = await upload(server, [["id", prepared.id]], { name: "t.txt", content: "t" }, readOnly);
        expect(denied.status).toBe(403);
        expect(denied.body.type).toBe("forbidden");
      });
    });
  });

  describe("read access", () => {
    let attached: string;
    let revOrg: { id: string };

    beforeAll(async () => {
      const prepared = await prepare("contract.pdf", "application/pdf");
      await upload(server, formOf(prepared), { name: "contract.pdf", content: "%PDF-1.7" });
      attached = prepared.id;
      const account = (await server.post("/accounts.create", { display_name: "Acme" })).body.account;
      revOrg = (
        await server.post("/rev-orgs.create", {
          account: account.id,
          display_name: "Acme EU",
          artifacts: [attached],
        })
      ).body.rev_org;
    });

    describe("artifacts.get", () => {
      it("needs artifact:read and a read scope of the record the file belongs to", async () => {
        const onlyArtifacts = await server.token(["artifact:read"]);
        const denied = await server.post("/artifacts.get", { id: attached }, onlyArtifacts);
        expect(denied.status).toBe(403);
        expect(denied.body).toMatchObject({ type: "forbidden", object_ids: [revOrg.id] });
        for (const scope of ["rev_org:read", "rev_org:write", "rev_org:all"]) {
          const token = await server.token(["artifact:read", scope]);
          const res = await server.post("/artifacts.get", { id: attached }, token);
          expect(res.status, scope).toBe(200);
          expect(res.body.version.version).toBe("1");
        }
        const noArtifactScope = await server.token(["rev_org:read", "artifact:write"]);
        expect((await server.post("/artifacts.get", { id: attached }, noArtifactScope)).status).toBe(403);
        // A file attached to nothing needs artifact:read only.
        const loose = await prepare("loose.txt");
        await upload(server, formOf(loose), { name: "loose.txt", content: "x" });
        expect((await server.post("/artifacts.get", { id: loose.id }, onlyArtifacts)).status).toBe(200);
      });

      it("guards a message's file by the conversation's scopes", async () => {
        const prepared = await prepare("trace.log");
        await upload(server, formOf(prepared), { name: "trace.log", content: "trace" });
        const conversation = (
          await server.post("/conversations.create", {
            type: "support",
            messages: [{ body: "log", artifacts: [prepared.id] }],
          })
        ).body.conversation;
        const denied = await server.post(
          "/artifacts.get",
          { id: prepared.id },
          await server.token(["artifact:read"]),
        );
        expect(denied.status).toBe(403);
        expect(denied.body.object_ids).toEqual([conversation.messages[0].id]);
        const allowed = await server.post(
          "/artifacts.get",
          { id: prepared.id },
          await server.token(["artifact:read", "conversation:read"]),
        );
        expect(allowed.status).toBe(200);
      });
    });

    describe("artifacts.list", () => {
      it("lists the files of a record under the same access rule", async () => {
        const list = await server.call("GET", `/artifacts.list?parent_id=${encodeURIComponent(revOrg.id)}`);
        expect(list.status).toBe(200);
        expect(list.body.artifacts).toEqual([
          expect.objectContaining({
            id: attached,
            file: { name: "contract.pdf", type: "application/pdf", size: 8 },
          }),
        ]);
        const denied = await server.post(
          "/artifacts.list",
          { parent_id: revOrg.id },
          await server.token(["artifact:read"]),
        );
        expect(denied.status).toBe(403);
        expect(denied.body.object_ids).toEqual([revOrg.id]);
        const allowed = await server.post(
          "/artifacts.list",
          { parent_id: revOrg.id },
          await server.token(["artifact:read", "rev_org:read"]),
        );
        expect(allowed.body.artifacts).toHaveLength(1);
        const empty = await server.post("/artifacts.list", {
          parent_id: (await server.post("/accounts.list", {})).body.accounts[0].id,
        });
        expect(empty.body.artifacts).toEqual([]);
        const missing = await server.post("/artifacts.list", { parent_id: "REV-99999" });
        expect(missing.status).toBe(404);
        const noParent = await server.post("/artifacts.list", {});
        expect(noParent.body).toMatchObject({ type: "missing_required_field", field_name: "parent_id" });
      });
    });

    it("404s an unknown artifact and another organization's", async () => {
      expect((await server.post("/artifacts.get", { id: "ARTIFACT-99999" })).status).toBe(404);
      const other = await server.otherOrg();
      const foreign = await server.call("POST", "/artifacts.get", {
        token: other.token,
        body: { id: attached },
      });
      expect(foreign.status).toBe(404);
    });
  });

  describe("the body limit", () => {
    let small: TestServer;
    beforeAll(async () => {
      small = await startTestServer(database, { bodyLimit: 1024 });
    });
    afterAll(async () => {
      expect(small.app.violations).toEqual([]);
      await small.close();
    });

    it("refuses a file larger than the body limit with 413 and max_bytes", async () => {
      const prepared = (await small.call("POST", "/artifacts.prepare", { body: { file_name: "big.bin" } }))
        .body;
      const big = await upload(small, [["id", prepared.id]], { name: "big.bin", content: "x".repeat(2000) });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ type: "request_entity_too_large", max_bytes: 1024 });
      const fits = await upload(small, [["id", prepared.id]], { name: "big.bin", content: "x".repeat(1000) });
      expect(fits.status).toBe(201);
      const versions = await small.call("POST", "/artifacts.get", { body: { id: prepared.id } });
      expect(versions.body.version.version).toBe("1");
    });
  });

  it("kept every answer inside the contract", () => {
    expect(server.app.violations).toEqual([]);
  });
});
