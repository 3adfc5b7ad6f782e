import { createClient } from "@workapi/client";

const api = createClient({ baseUrl: "http://localhost:8080", token: process.env.WORKAPI_TOKEN ?? "" });
const { data } = await api.works.export({ type: ["issue"], first: 10 }, { throwOnError: true });
console.log(data.works.map((work) => `${work.display_id} ${work.title}`));
