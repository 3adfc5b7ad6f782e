import { createClient } from "@workapi/client";

const api = createClient({ baseUrl: "http://localhost:8080", token: "<your token>", retry: true });

// Every tag, 100 per request, following next_cursor to the end.
for await (const tag of api.tags.list.all({ limit: 100 })) console.log(tag.name);

// At most 500 issues, walking backward (mode "before" follows prev_cursor).
for await (const work of api.works.list.all({ type: ["issue"] }, { mode: "before", limit: 500 })) {
  console.log(work.display_id);
}

// Whole pages, by operation name.
for await (const page of api.paginate("vistas.list", { limit: 100 }, { pages: true })) {
  console.log(page.vistas.length, page.next_cursor);
}
