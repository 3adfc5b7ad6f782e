import { createClient } from "@workapi/client";

const api = createClient({ baseUrl: "http://localhost:8080", token: "<your token>", retry: true });

// Every tag, 100 per request (`limit`, the page size), following next_cursor to the end: one answer.
const { data: tags, error } = await api.tags.list.all({ limit: 100 });
if (error) console.error(`${error.type}: ${error.message}`);
else console.log(tags.map((tag) => tag.name));

// At most 500 issues (`max`), walking backward (mode "before" follows prev_cursor); throwing on an error.
const { data: works } = await api.works.list.all(
  { type: ["issue"] },
  { mode: "before", max: 500, throwOnError: true },
);
console.log(works.map((work) => work.display_id));

// Page after page, as each answer arrives, by operation name; the last one may be an error answer.
for await (const page of api.paginate("vistas.list", { limit: 100 }, { pages: true })) {
  if (page.error) console.error(page.error.type);
  else console.log(page.data.vistas.length, page.data.next_cursor);
}
