export * from "./errors/domain-error.ts";
export * from "./auth/permissions.ts";
export * from "./auth/principal.ts";
export { appendEvent, type NewEvent } from "./events/append-event.ts";
export { listEnvironments, type Environment } from "./environments/list-environments.ts";
