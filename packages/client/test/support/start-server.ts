import type { AddressInfo } from "node:net";
import { createTestDb, type TestDb } from "@vexil/db/testing";
import { type App, createApp, loadConfig } from "@vexil/server";
import { ensureAdminUser, ensureInitialAdminTokens } from "@vexil/services";
import pino from "pino";

export const ADMIN_PASSWORD = "client-tests-password";
export const ADMIN_TOKEN = "*:*.client-tests-admin-token-0123456789";

export interface RunningServer {
  url: string;
  app: App;
  db: TestDb;
  close(): Promise<void>;
}

/** The real server on port 0 and this test file's own database, with `admin` and one admin token. */
export async function startServer(): Promise<RunningServer> {
  const db = await createTestDb();
  const config = loadConfig({ LOG_LEVEL: "silent", SESSION_SECRET: "client-tests-secret-of-32-characters!!", SHUTDOWN_GRACE_MS: "2000" });
  const app = createApp({ config, db, log: pino({ level: "silent" }) });
  await ensureAdminUser(app.deps.db, app.deps.hasher, ADMIN_PASSWORD);
  await ensureInitialAdminTokens(app.deps.db, [ADMIN_TOKEN]);
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    app,
    db,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
