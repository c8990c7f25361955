import { type Kysely, Migrator, sql } from "kysely";
import type { Database } from "./database.ts";
import { migrations } from "./migrations/index.ts";

// Any constant that no other part of Vexil uses as an advisory lock key.
const MIGRATION_LOCK_KEY = 7_401_337;

export interface MigrationOutcome {
  applied: string[];
}

/**
 * Brings the schema up to date. Instances that start together queue on a Postgres advisory lock
 * held on one connection, so exactly one of them migrates and the others find nothing to do.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationOutcome> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      const migrator = new Migrator({
        db: conn,
        provider: { getMigrations: async () => migrations },
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      return {
        applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName),
      };
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
