export { type App, type AppOptions, buildApp } from "./app.js";
export { configFromEnv, DEFAULTS, type ServerConfig } from "./config.js";
export { hashToken, issueToken } from "./http/auth.js";
export { ApiError } from "./http/errors.js";
export { bootstrap, startServer } from "./server.js";
export { openStore } from "./store/database.js";
export type { Store } from "./store/types.js";
