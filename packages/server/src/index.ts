export { type App, type AppOptions, buildApp } from "./app.js";
export { configFromEnv, DEFAULTS, type ServerConfig } from "./config.js";
export { actorOf, hashToken, issueToken } from "./core/auth.js";
export { ApiError } from "./core/errors.js";
export { type SessionUpload, storeSession } from "./operations/observability.js";
export { type SeedOptions, seed } from "./seed/index.js";
export { bootstrap, startServer } from "./server.js";
export { dropPostgresSchema, openStore } from "./store/open.js";
export type { Store } from "./store/types.js";
