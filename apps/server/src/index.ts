export { createApp, type App, type AppOptions } from "./app.ts";
export { loadConfig, ConfigError, type Config } from "./config.ts";
export { createLogger } from "./logger.ts";
