export type { Database } from "./database.ts";
export { createDb, type Db, type DbConfig } from "./create-db.ts";
export { DataDirInUse } from "./data-dir-lock.ts";
export { migrateToLatest, type MigrationOutcome } from "./migrate.ts";
export { isDatabaseUnavailable, isStatementTimeout } from "./database-unavailable.ts";
export type { ListenHandlers, Listener } from "./listener.ts";
export { preparedQuery, type PreparedQuery } from "./prepared-query.ts";
export { batchedLookUp } from "./batched-look-up.ts";
export { textRows } from "./text-rows.ts";
