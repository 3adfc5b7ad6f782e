import { createClient } from "@workapi/client";

// A fixed token: sent as `Authorization: Bearer <token>` on every request.
export const api = createClient({ baseUrl: "http://localhost:8080", token: "<your token>" });

// Or a function (sync or async), called for every request and every retry: the place to refresh a token
// before it expires.
declare function readTokenFromVault(): Promise<{ token: string; expiresAt: number }>;
let current: { token: string; expiresAt: number } | undefined;

export const refreshing = createClient({
  baseUrl: "http://localhost:8080",
  token: async () => {
    if (!current || current.expiresAt < Date.now() + 60_000) current = await readTokenFromVault();
    return current.token;
  },
});
