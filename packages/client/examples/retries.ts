import { createClient } from "@workapi/client";

// Retries are off until a client or a call turns them on. `retry: true` uses the defaults
// (retryDefaults: maxRetries 2, baseDelay 250 ms, maxDelay 10 s, jitter on).
const api = createClient({
  baseUrl: "http://localhost:8080",
  token: "<your token>",
  retry: { maxRetries: 3, baseDelay: 500 },
  deadline: 30_000, // each call, retries included, ends within 30 s
});

// A big export may take longer and retry more; a call can also turn retries off.
await api.works.export({ first: 5000 }, { retry: { maxRetries: 5 }, deadline: 120_000 });
await api.tags.list({}, { retry: false });

// Writes are never repeated, whatever the options say: only operations marked x-safe are retried.
await api.works.delete({ id: "ISS-12" });

// An AbortSignal ends the call at once, even while it waits between retries.
const controller = new AbortController();
setTimeout(() => controller.abort(new Error("the user went away")), 5_000);
await api.tags.list({}, { signal: controller.signal }).catch((reason) => console.warn(reason));
