import { connectDatabase, migrateToLatest } from "@vexil/db";
import { type App, createApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { loadConfig } from "./config.ts";
import { compileEmbeddedDatabaseForMemory } from "./embedded-runtime.ts";
import { createLogger } from "./logger.ts";

/**
 * Starts Vexil as `pnpm start` and `vexil serve` do: migrate, first-start data, listen, and shut
 * down gracefully on SIGTERM/SIGINT. A bad configuration throws a ConfigError before anything opens.
 */
export async function runServer(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const log = createLogger({ level: config.LOG_LEVEL, pretty: config.LOG_PRETTY ?? process.stdout.isTTY === true });

  // Before the embedded database's module is loaded and compiled (at the first query, by migrate).
  if (!config.DATABASE_URL) compileEmbeddedDatabaseForMemory();
  const db = connectDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  const { applied } = await migrateToLatest(db.kysely);
  if (applied.length) log.info({ applied }, "migrations applied");

  const app: App = createApp({ config, db, log });
  await bootstrap(app, config);
  await new Promise<void>((resolve, reject) => {
    app.server.once("error", reject);
    app.server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const where = db.kind === "postgres" ? "Postgres (DATABASE_URL)" : `embedded PGlite in ${config.DATA_DIR}`;
  log.info(
    { url: `http://${config.HOST}:${port}`, database: db.kind },
    `Vexil listening on http://${config.HOST}:${port} (database: ${where})`,
  );

  const shutdown = (signal: string) => {
    log.info({ signal }, "shutting down");
    app.close().then(
      () => {
        // A closing line, so whoever watches the log knows the stop finished and was clean.
        log.info("stopped: in-flight requests finished, database closed");
        process.exit(0);
      },
      (error) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}
