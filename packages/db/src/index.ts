export type { Database } from "./database.ts";
export { createDb, type Db, type DbConfig } from "./create-db.ts";
export { migrateToLatest, type MigrationOutcome } from "./migrate.ts";
export { isDatabaseUnavailable, isStatementTimeout } from "./database-unavailable.ts";
