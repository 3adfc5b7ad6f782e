// Content: uploaded files, knowledge-base articles, code changes, custom objects and comments on the works.
import { uploadedArtifact } from "./calls.js";
import type { Builder, Setup } from "./context.js";
import { TITLES } from "./data.js";
import type { Works } from "./works.js";

/**
 * Four files uploaded but not attached to anything yet: a report in two versions and three screenshots. Made
 * before any other file, they are ARTIFACT-1 to ARTIFACT-4, the files the docs' examples read and attach (each
 * attaching example takes one of its own: a file belongs to one record).
 */
export async function makeUploads({ call, count }: Builder): Promise<void> {
  await uploadedArtifact(call, "quarterly-report.txt", "text/plain", ["first draft", "final"]);
  for (const n of [1, 2, 3]) await uploadedArtifact(call, `recording-${n}.png`, "image/png", ["PNG"]);
  count("artifacts", 4);
}

/** Four published articles, each with a step-by-step child article. */
export async function makeArticles({ call, rnd, count }: Builder, setup: Setup): Promise<void> {
  for (const title of ["Getting started", "Inviting your team", "Exporting data", "Billing and invoices"]) {
    const { article } = await call("articles.create", {
      title,
      owned_by: [rnd.pick(setup.userIds)],
      resource: { url: `https://help.example.com/${title.toLowerCase().replaceAll(" ", "-")}` },
      status: "published",
      applies_to_parts: [rnd.pick(setup.partIds)],
    });
    await call("articles.create", {
      title: `${title}: step by step`,
      owned_by: [rnd.pick(setup.userIds)],
      resource: { url: `https://help.example.com/${title.toLowerCase().replaceAll(" ", "-")}/steps` },
      parent: article.id,
      status: "published",
    });
    count("articles", 2);
  }
}

export async function makeCodeChanges({ call, rnd, count }: Builder): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await call("code-changes.create", {
      title: `Fix: ${rnd.pick(TITLES).toLowerCase()}`,
      branch: `fix/${i + 1}`,
      target_branch: "main",
      commit_id: (0x1000000 + i * 7919).toString(16),
      repo_url: "https://git.example.com/acme/app",
      source: "github",
      total_loc: {
        file_count: rnd.int(1, 12),
        lines_added: rnd.int(1, 400),
        lines_deleted: rnd.int(0, 200),
        lines_modified: rnd.int(0, 50),
      },
    });
    count("code_changes");
  }
}

/** Twenty campaigns with tenant fields. */
export async function makeCustomObjects({ call, rnd, count }: Builder): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await call("custom-objects.create", {
      leaf_type: "campaign",
      title: `Campaign ${i + 1}`,
      unique_key: `campaign-${i + 1}`,
      custom_fields: {
        tnt__priority: rnd.pick(["low", "medium", "high"]),
        tnt__budget: rnd.int(1, 100) * 1000,
      },
      custom_schema_spec: { tenant_fragment: true },
    });
    count("custom_objects");
  }
}

/** An internal comment on each of the first thirty works, and a customer's reply on the first ticket. */
export async function makeComments(
  { call, count }: Builder,
  { workIds, workDisplayIds }: Works,
): Promise<void> {
  for (const [index, workId] of workIds.slice(0, 30).entries()) {
    await call("timeline-entries.create", {
      type: "timeline_comment",
      object: workId,
      // Comments after the first name the work before them, which becomes a reference of the comment.
      body: index === 0 ? "Reproduced on the latest build." : `Same cause as ${workDisplayIds[index - 1]}.`,
      visibility: "internal",
    });
    count("timeline_comments");
  }
  // A customer's reply on the first ticket (the second work), imported from the help desk with its reference
  // there: timeline-entries.get finds it by that reference.
  await call("timeline-entries.create", {
    type: "timeline_comment",
    object: workIds[1] as string,
    body: "It works again on our side, thank you.",
    visibility: "external",
    external_ref: "zendesk-comment-88120",
  });
  count("timeline_comments");
}
