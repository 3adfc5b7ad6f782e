import { ApiError, createClient, unwrap } from "@workapi/client";

const api = createClient({ baseUrl: "http://localhost:8080", token: "<your token>" });

// 1. By default an error answer is `{ error }`: the interface's error body, told apart by `type`.
const { data, error, response } = await api.tags.list({ name: ["bug"] });
if (error) {
  switch (error.type) {
    case "too_many_requests":
      console.warn(`Rate limited: try again in ${error.retry_after} s`);
      break;
    case "forbidden":
      console.warn(`No access: ${error.detail}`);
      break;
    default:
      console.error(`${response.status} ${error.type}: ${error.message}`);
  }
} else {
  console.log(data.tags.map((tag) => tag.name));
}

// 2. With `throwOnError` (per call, or for the whole client) an error answer throws an ApiError.
try {
  const { data: change } = await api.codeChanges.get({ id: "CC-42" }, { throwOnError: true });
  console.log(change.code_change.title);
} catch (thrown) {
  if (!(thrown instanceof ApiError)) throw thrown;
  // status, the typed body, the x-request-id to quote in a report, and the Response.
  console.error(thrown.status, thrown.body.type, thrown.requestId);
  if (thrown.body.type === "not_found") console.error("No such code change");
}

// 3. unwrap() gives the data of any answer, from the facade or from GET/POST, or throws the ApiError.
const page = unwrap(await api.GET("/tags.list", { params: { query: { limit: 5 } } }));
console.log(page.tags.length, page.next_cursor);
